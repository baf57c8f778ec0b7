import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../users/users.tables.ts";

/** Two-factor recovery codes: ten per generation, single use, hashed. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("recovery_codes_user_idx").on(table.userId)],
);
