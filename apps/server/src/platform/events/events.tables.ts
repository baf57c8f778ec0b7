import { bigint, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** When an event that is published at most so often (a refused upload's limit) was last published. */
export const eventThrottles = pgTable(
  "event_throttles",
  {
    organizationId: bigint("organization_id", { mode: "number" }).notNull(),
    key: text("key").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.key] })],
);
