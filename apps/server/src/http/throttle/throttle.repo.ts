import { inArray, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { loginThrottle } from "./throttle.tables.ts";

export async function findThrottleRows(db: Database, keys: string[]) {
  return db.select().from(loginThrottle).where(inArray(loginThrottle.key, keys));
}

/**
 * Counts one event for `key` inside a fixed window that starts at the first event; once the
 * count reaches `limit`, the key is locked for `lockMs` (when given). One upsert, so concurrent
 * requests on several processes cannot lose counts.
 */
export async function countThrottleEvent(
  db: Database,
  key: string,
  options: { limit: number; windowMs: number; lockMs?: number; now: Date },
) {
  const { limit, windowMs, lockMs, now } = options;
  const windowStart = new Date(now.getTime() - windowMs);
  const lockUntil = lockMs === undefined ? null : new Date(now.getTime() + lockMs);
  const expired = sql`${loginThrottle.windowStartedAt} <= ${windowStart}`;
  const nextFailures = sql`case when ${expired} then 1 else ${loginThrottle.failures} + 1 end`;
  const [row] = await db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: now, lockedUntil: limit <= 1 ? lockUntil : null })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: nextFailures,
        windowStartedAt: sql`case when ${expired} then ${now} else ${loginThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when ${nextFailures} >= ${limit} then ${lockUntil}::timestamptz else ${loginThrottle.lockedUntil} end`,
      },
    })
    .returning();
  if (!row) throw new Error("throttle upsert returned no row");
  return row;
}

export async function clearThrottle(db: Database, key: string): Promise<void> {
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
}
