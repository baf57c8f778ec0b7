import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { applications, versions } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/** A build streamed to storage and inspected, waiting for the user to confirm it (24 h). */
export const preloads = pgTable(
  "preloads",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The opaque preload_path handed to the client. */
    path: text("path").notNull(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" }).references(() => applications.id, {
      onDelete: "cascade",
    }),
    appType: smallint("app_type").notNull(),
    fileKey: text("file_key").notNull(),
    fileName: text("file_name").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
    iconKey: text("icon_key"),
    buildInfo: jsonb("build_info").notNull().default({}),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("preloads_path_key").on(table.path),
    index("preloads_expires_idx").on(table.expiresAt),
  ],
);

/** Long upload work answered with 202 {task_id}; polled at /api/upload-task-result/{id}/. */
export const uploadTasks = pgTable(
  "upload_tasks",
  {
    id: text("id").primaryKey(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    applicationId: bigint("application_id", { mode: "number" }).references(() => applications.id, {
      onDelete: "cascade",
    }),
    versionId: bigint("version_id", { mode: "number" }).references(() => versions.id, {
      onDelete: "set null",
    }),
    kind: text("kind").notNull(),
    /** PENDING, STARTED, SUCCESS, FAILURE. */
    state: text("state").notNull().default("PENDING"),
    errorCode: integer("error_code"),
    detail: text("detail").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("upload_tasks_org_idx").on(table.organizationId),
    // Deleting versions checks this foreign key once per version: an index keeps that a lookup.
    index("upload_tasks_version_idx").on(table.versionId),
  ],
);

/**
 * Uploads running now, so that one person or one client address cannot hold more than a few at
 * once across every process. A row lives while its upload streams; a crash leaves it to expire.
 */
export const uploadSlots = pgTable(
  "upload_slots",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: bigint("user_id", { mode: "number" }),
    address: text("address").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("upload_slots_user_idx").on(table.userId, table.expiresAt),
    index("upload_slots_address_idx").on(table.address, table.expiresAt),
  ],
);
