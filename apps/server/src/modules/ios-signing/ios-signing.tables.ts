import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { applications, versions } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/**
 * Re-signings of iOS builds. The p12, its password and the profiles wait here sealed until the
 * task has run, then are cleared: what stays is what was done and with which certificate.
 */
export const iosResigns = pgTable(
  "ios_resigns",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    versionId: bigint("version_id", { mode: "number" })
      .notNull()
      .references(() => versions.id, { onDelete: "cascade" }),
    /** The upload task that reports progress (upload_tasks.id; that table belongs to the upload module). */
    taskId: text("task_id").notNull(),
    resultVersionId: bigint("result_version_id", { mode: "number" }).references(() => versions.id, {
      onDelete: "set null",
    }),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    bundleIds: jsonb("bundle_ids").$type<Record<string, string>>().notNull().default({}),
    certificateSubject: text("certificate_subject").notNull(),
    certificateSha256: text("certificate_sha256").notNull(),
    certificateExpires: timestamp("certificate_expires", { withTimezone: true }).notNull(),
    profiles: jsonb("profiles")
      .$type<Array<{ name: string; uuid: string; app_id: string; expires: string }>>()
      .notNull()
      .default([]),
    customEntitlements: text("custom_entitlements"),
    /** SecretBox-sealed JSON of the p12 (base64), its password and the profiles (base64); null once run. */
    sealedMaterial: text("sealed_material"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("ios_resigns_version_idx").on(table.versionId),
    index("ios_resigns_org_idx").on(table.organizationId),
    index("ios_resigns_result_idx").on(table.resultVersionId),
  ],
);
