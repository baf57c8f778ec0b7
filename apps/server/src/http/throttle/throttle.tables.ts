import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Failed-login bookkeeping per key ("account:<email>" or "address:<ip>"), shared by every
 * process through the database so lockouts hold behind a load balancer.
 */
export const loginThrottle = pgTable("login_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  /** Locks so far, for keys whose locks grow longer each time (install-link passwords). */
  strikes: integer("strikes").notNull().default(0),
});
