import { bigint, index, integer, jsonb, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { applications, versions } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/** An App Store Connect API key or a Google Play service account an organization brought. */
export const storeDeveloperAccounts = pgTable(
  "store_developer_accounts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** app_store or google_play. */
    store: text("store").notNull(),
    keyName: text("key_name").notNull(),
    /** App Store Connect only. */
    issuerId: text("issuer_id"),
    keyId: text("key_id"),
    /** Google Play only: the service account. */
    clientEmail: text("client_email"),
    /** The .p8 key or the service-account JSON, sealed (SecretBox). */
    sealedKey: text("sealed_key").notNull(),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("store_developer_accounts_org_idx").on(table.organizationId, table.store)],
);

/**
 * One build sent to a store: the task a client polls, and what a retried job needs to resume
 * (the store's upload ids, the slices already sent).
 */
export const storeUploads = pgTable(
  "store_uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    versionId: bigint("version_id", { mode: "number" })
      .notNull()
      .references(() => versions.id, { onDelete: "cascade" }),
    /** Null once the account is deleted; the history stays. */
    accountId: bigint("account_id", { mode: "number" }).references(() => storeDeveloperAccounts.id, {
      onDelete: "set null",
    }),
    store: text("store").notNull(),
    /** queued, uploading, processing, done, failed. */
    state: text("state").notNull().default("queued"),
    progress: real("progress").notNull().default(0),
    message: text("message").notNull().default(""),
    /** What was asked: track, rollout, release notes, language, beta groups. */
    options: jsonb("options").notNull().default({}),
    /** Where the store's side stands, for resuming: its upload ids, the slices sent. */
    resume: jsonb("resume").notNull().default({}),
    attempts: integer("attempts").notNull().default(0),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("store_uploads_app_idx").on(table.organizationId, table.applicationId, table.createdAt.desc()),
  ],
);
