import { bigint, boolean, integer, pgTable, text } from "drizzle-orm/pg-core";

/** Plans (tariffs). Every limit uses 0 for "unlimited", as the spec does. */
export const plans = pgTable("plans", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  code: text("code").notNull().unique(),
  title: text("title").notNull(),
  priceCents: integer("price_cents").notNull().default(0),
  currency: text("currency").notNull().default("usd"),
  spaceLimitMb: bigint("space_limit_mb", { mode: "number" }).notNull().default(0),
  buildLimit: integer("build_limit").notNull().default(0),
  projectsLimit: integer("projects_limit").notNull().default(0),
  userLimit: integer("user_limit").notNull().default(0),
  isDefault: boolean("is_default").notNull().default(false),
  sortOrder: integer("sort_order").notNull().default(0),
});
