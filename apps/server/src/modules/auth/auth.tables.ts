import { bigint, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/** Single-use codes sent by e-mail (activation, password reset, invitation); only hashes are kept. */
export const userCodes = pgTable(
  "user_codes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["activation", "password_reset", "invitation"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    /** An invitation's organization: using the code accepts that organization's invitation only. */
    organizationId: bigint("organization_id", { mode: "number" }).references(() => organizations.id, {
      onDelete: "cascade",
    }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("user_codes_hash_key").on(table.codeHash),
    index("user_codes_user_idx").on(table.userId),
  ],
);
