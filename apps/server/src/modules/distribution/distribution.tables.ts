import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { applications, versions } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/**
 * An install link (the getapp page): for an app (always its newest released build per platform)
 * or for one version. `key` is the unguessable part of the public URL.
 */
export const distributions = pgTable(
  "distributions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    versionId: bigint("version_id", { mode: "number" }).references(() => versions.id, {
      onDelete: "cascade",
    }),
    key: text("key").notNull(),
    /** What the link is for, as its makers call it ("QA team", "Beta wave 2"); null: unnamed. */
    name: text("name"),
    /** public, password, members (signed-in testers and members of the project). */
    access: text("access").notNull().default("public"),
    passwordHash: text("password_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** 0 = no limit. */
    installLimit: integer("install_limit").notNull().default(0),
    installsCount: integer("installs_count").notNull().default(0),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("distributions_key_key").on(table.key),
    index("distributions_app_idx").on(table.applicationId),
    // Deleting versions checks this foreign key once per version: an index keeps that a lookup.
    index("distributions_version_idx").on(table.versionId),
  ],
);

/**
 * A client's download (or iOS install) of one build through one link. It holds the link's
 * install slot from the moment the download starts, so parallel requests cannot overrun the
 * limit, and it is shared by every request of that client for that build (range requests), so
 * one client counts once. A download that delivered nothing gives its slot back.
 */
export const installReservations = pgTable(
  "install_reservations",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    distributionId: bigint("distribution_id", { mode: "number" })
      .notNull()
      .references(() => distributions.id, { onDelete: "cascade" }),
    versionId: bigint("version_id", { mode: "number" })
      .notNull()
      .references(() => versions.id, { onDelete: "cascade" }),
    /** SHA-256 of the client's address and User-Agent. */
    clientKey: text("client_key").notNull(),
    /** Whether it took one of the link's install slots (an IPA after its manifest does not). */
    holdsSlot: boolean("holds_slot").notNull().default(false),
    /** When the iOS install (manifest read) and the download (last byte delivered) were counted. */
    installCountedAt: timestamp("install_counted_at", { withTimezone: true }),
    downloadCountedAt: timestamp("download_counted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("install_reservations_client_key").on(table.versionId, table.distributionId, table.clientKey),
    index("install_reservations_link_idx").on(table.distributionId),
    index("install_reservations_created_idx").on(table.createdAt),
  ],
);

/** One install or download of a version through a link, by platform (for the counts). */
export const installEvents = pgTable(
  "install_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    versionId: bigint("version_id", { mode: "number" })
      .notNull()
      .references(() => versions.id, { onDelete: "cascade" }),
    distributionId: bigint("distribution_id", { mode: "number" }).references(() => distributions.id, {
      onDelete: "set null",
    }),
    /** iphone, ipad, android, windows, macos, other. */
    platform: text("platform").notNull(),
    /** install (iOS manifest fetched by the device) or download (file delivered). */
    kind: text("kind").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("install_events_version_idx").on(table.versionId)],
);

/** A device registered through the UDID profile, for a person when they were signed in. */
export const devices = pgTable(
  "devices",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, { onDelete: "cascade" }),
    udid: text("udid").notNull(),
    product: text("product"),
    osVersion: text("os_version"),
    serial: text("serial"),
    imei: text("imei"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("devices_user_idx").on(table.userId), index("devices_udid_idx").on(table.udid)],
);

/** A UDID profile handed out: its challenge ties the device's signed reply to this request. */
export const udidEnrollments = pgTable(
  "udid_enrollments",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** SHA-256 of the challenge; the challenge itself travels only inside the profile. */
    challengeHash: text("challenge_hash").notNull(),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, { onDelete: "cascade" }),
    deviceId: bigint("device_id", { mode: "number" }).references(() => devices.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("udid_enrollments_challenge_key").on(table.challengeHash)],
);
