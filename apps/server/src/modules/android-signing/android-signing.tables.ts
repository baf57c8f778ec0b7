import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { applications } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/**
 * Android signing keys: a keystore an app or its organization brought (`uploaded`), or the key
 * Tarmac made for an app that had none (`generated`, internal testing only). The keystore file
 * and its passwords (or the generated key) are sealed together; only the certificate's
 * description is kept in the clear, to be shown.
 */
export const androidSigningKeys = pgTable(
  "android_signing_keys",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Null: the organization's keystore, for its apps without one of their own. */
    applicationId: bigint("application_id", { mode: "number" }).references(() => applications.id, {
      onDelete: "cascade",
    }),
    /** uploaded, generated. */
    origin: text("origin").notNull(),
    /** SecretBox-sealed JSON: the keystore file with its passwords and alias, or a generated key. */
    sealed: text("sealed").notNull(),
    /** JKS, PKCS12; empty for a generated key. */
    storeType: text("store_type").notNull().default(""),
    keyAlias: text("key_alias").notNull().default(""),
    fileName: text("file_name").notNull().default(""),
    certificateSubject: text("certificate_subject").notNull(),
    certificateIssuer: text("certificate_issuer").notNull(),
    /** Upper-case hex with colons, as keytool prints it. */
    certificateSha256: text("certificate_sha256").notNull(),
    validFrom: timestamp("valid_from", { withTimezone: true }).notNull(),
    validUntil: timestamp("valid_until", { withTimezone: true }).notNull(),
    updatedBy: bigint("updated_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("android_signing_keys_app_origin_key").on(table.applicationId, table.origin),
    uniqueIndex("android_signing_keys_org_key")
      .on(table.organizationId)
      .where(sql`${table.applicationId} is null`),
    index("android_signing_keys_org_idx").on(table.organizationId),
  ],
);
