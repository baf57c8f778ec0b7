import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
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

/**
 * A resumable upload (tus): its bytes arrive in any number of PATCH requests, possibly to
 * different processes, so its state lives here. The offset moves only with a stored part, in
 * the same statement that checks it (see ResumableUploadService.append).
 */
export const tusUploads = pgTable(
  "tus_uploads",
  {
    /** The id in the upload's URL and the `upload_id` that finishes it (32 hex characters). */
    id: text("id").primaryKey(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    /** The Upload-Metadata header as the client sent it, answered back on HEAD. */
    metadata: text("metadata").notNull().default(""),
    /** The declared Upload-Length. */
    uploadLength: bigint("upload_length", { mode: "number" }).notNull(),
    /** Bytes stored so far: the sum of the parts' sizes. */
    uploadOffset: bigint("upload_offset", { mode: "number" }).notNull().default(0),
    /** Scratch prefix of the assembly, `orgs/{org}/uploads/{id}/` (qualified when the organization has its own storage). */
    storagePrefix: text("storage_prefix").notNull(),
    /**
     * The object the bytes become (a build key, qualified like storagePrefix), assembled from the
     * parts in storage when the upload is finished. Null only for uploads begun before assemblies.
     */
    targetKey: text("target_key"),
    /** The storage's name for the assembly under way (S3: the multipart upload id). */
    assemblyHandle: text("assembly_handle").notNull().default(""),
    /** The request sending bytes now, so two never write the same range at once; see writerUntil. */
    writer: text("writer"),
    /** The writer's claim lapses then unless renewed (a process that died lets go by itself). */
    writerUntil: timestamp("writer_until", { withTimezone: true }),
    /** Moves forward with every stored part; the sweep removes the upload once it has passed. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("tus_uploads_owner_idx").on(table.organizationId, table.userId),
    index("tus_uploads_expires_idx").on(table.expiresAt),
  ],
);

/** The stored pieces of a resumable upload, handed to the storage in offset order to assemble it. */
export const tusUploadParts = pgTable(
  "tus_upload_parts",
  {
    uploadId: text("upload_id")
      .notNull()
      .references(() => tusUploads.id, { onDelete: "cascade" }),
    startOffset: bigint("start_offset", { mode: "number" }).notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** An object of the part's own (qualified), where the storage keeps parts as objects. */
    key: text("key"),
    /** The storage's record of the part (S3: part numbers and ETags; Azure: block ids). */
    detail: text("detail"),
  },
  (table) => [
    // One part per offset: a racing request that stored the same range cannot record it too.
    primaryKey({ columns: [table.uploadId, table.startOffset], name: "tus_upload_parts_pkey" }),
    // No two parts share an object.
    uniqueIndex("tus_upload_parts_key_key").on(table.key),
  ],
);
