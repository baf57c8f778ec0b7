import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/**
 * An organization's own bucket. Rows never change once written: saving new settings writes a
 * new row and makes it the active one, so a file's qualified key (`loc/{id}/…`) keeps naming the
 * settings it was written with, and every process may keep a driver per row.
 */
export const storageLocations = pgTable(
  "storage_locations",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** s3 or gcs. */
    kind: text("kind").notNull(),
    /** What may be shown: endpoint, region, bucket, prefix, path style, key id, client e-mail. */
    settings: jsonb("settings").notNull(),
    /** The secret access key or the service-account JSON, sealed (SecretBox). */
    sealedSecret: text("sealed_secret").notNull(),
    /** New files go to the active location; at most one per organization (none: instance storage). */
    active: boolean("active").notNull().default(false),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Last time the owner was told this bucket refused a write (at most one mail an hour). */
    refusalNotifiedAt: timestamp("refusal_notified_at", { withTimezone: true }),
  },
  (table) => [
    index("storage_locations_org_idx").on(table.organizationId, table.kind),
    uniqueIndex("storage_locations_active_key").on(table.organizationId).where(sql`${table.active}`),
  ],
);

/** "Move existing builds": copies an organization's files to where new ones go, with progress. */
export const storageMoves = pgTable(
  "storage_moves",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Where the files go; null: the instance's storage. */
    targetLocationId: bigint("target_location_id", { mode: "number" }).references(() => storageLocations.id, {
      onDelete: "cascade",
    }),
    /** queued, running, done, failed. */
    state: text("state").notNull().default("queued"),
    totalFiles: integer("total_files").notNull().default(0),
    movedFiles: integer("moved_files").notNull().default(0),
    totalBytes: bigint("total_bytes", { mode: "number" }).notNull().default(0),
    movedBytes: bigint("moved_bytes", { mode: "number" }).notNull().default(0),
    error: text("error").notNull().default(""),
    startedBy: bigint("started_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("storage_moves_org_idx").on(table.organizationId, table.id),
    // One move at a time per organization.
    uniqueIndex("storage_moves_running_key")
      .on(table.organizationId)
      .where(sql`${table.state} in ('queued', 'running')`),
  ],
);
