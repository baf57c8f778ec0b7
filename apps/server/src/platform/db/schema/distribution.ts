import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { applications, versions } from "./applications.ts";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

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

/** A group of testers of one app (spec: group of testers). */
export const testerGroups = pgTable(
  "tester_groups",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("tester_groups_app_title_key").on(table.applicationId, table.title)],
);

/** A tester of one app, by e-mail (an account is linked when the address has one). */
export const testers = pgTable(
  "testers",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text("email").notNull(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("testers_app_email_key").on(table.applicationId, table.email)],
);

export const testerGroupMembers = pgTable(
  "tester_group_members",
  {
    groupId: bigint("group_id", { mode: "number" })
      .notNull()
      .references(() => testerGroups.id, { onDelete: "cascade" }),
    testerId: bigint("tester_id", { mode: "number" })
      .notNull()
      .references(() => testers.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.testerId] })],
);

/** Saved extra recipient addresses of an app (spec: app mail), chosen in "send to testers". */
export const appMails = pgTable(
  "app_mails",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("app_mails_app_email_key").on(table.applicationId, table.email)],
);

/** One e-mail of a "send to testers" batch, with its delivery state. */
export const testerMails = pgTable(
  "tester_mails",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    batchId: text("batch_id").notNull(),
    email: text("email").notNull(),
    /** queued, sent, failed. */
    state: text("state").notNull().default("queued"),
    error: text("error"),
    sentBy: bigint("sent_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("tester_mails_app_idx").on(table.applicationId, table.id.desc())],
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
