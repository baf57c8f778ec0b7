import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../users/users.tables.ts";

/** Personal data exports (GDPR): built by a job into storage, downloadable by their owner. */
export const dataExports = pgTable(
  "data_exports",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "ready", "failed"] })
      .notNull()
      .default("pending"),
    storageKey: text("storage_key"),
    size: bigint("size", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (table) => [index("data_exports_user_idx").on(table.userId)],
);
