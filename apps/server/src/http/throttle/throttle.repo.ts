import { sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { loginThrottle } from "./throttle.tables.ts";

export async function findThrottleRows(db: Database, keys: string[]) {
  return db.select().from(loginThrottle).where(anyOf(loginThrottle.key, keys));
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

/** Forgets the key; the count it held (0 when it had none). */
export async function clearThrottle(db: Database, key: string): Promise<number> {
  const [row] = await db
    .delete(loginThrottle)
    .where(anyOf(loginThrottle.key, [key]))
    .returning({ failures: loginThrottle.failures });
  return row?.failures ?? 0;
}

/**
 * Counts one failure for a key whose locks grow: the `limit`-th failure inside the window locks
 * the key for `baseLockMs`, doubled for each earlier lock (its strikes), up to `maxLockMs`. A key
 * whose last lock ended more than `forgiveMs` ago starts again from no strikes. One upsert.
 */
export async function countBackoffFailure(
  db: Database,
  key: string,
  rule: { limit: number; windowMs: number; baseLockMs: number; maxLockMs: number; forgiveMs: number },
  now: Date,
) {
  const t = loginThrottle;
  const expired = sql`${t.windowStartedAt} <= ${new Date(now.getTime() - rule.windowMs)}`;
  const nextFailures = sql`case when ${expired} then 1 else ${t.failures} + 1 end`;
  const forgiven = sql`coalesce(${t.lockedUntil}, '-infinity'::timestamptz) <= ${new Date(now.getTime() - rule.forgiveMs)}`;
  const priorStrikes = sql`case when ${forgiven} then 0 else ${t.strikes} end`;
  const locks = sql`${nextFailures} >= ${rule.limit}`;
  // least() before the power keeps the exponent from overflowing after many strikes.
  const lockMs = sql`least(${rule.maxLockMs}::float8, ${rule.baseLockMs}::float8 * power(2, least(${priorStrikes}, 30)))`;
  const [row] = await db
    .insert(t)
    .values({
      key,
      failures: 1,
      windowStartedAt: now,
      lockedUntil: rule.limit <= 1 ? new Date(now.getTime() + rule.baseLockMs) : null,
      strikes: rule.limit <= 1 ? 1 : 0,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: nextFailures,
        windowStartedAt: sql`case when ${expired} then ${now} else ${t.windowStartedAt} end`,
        strikes: sql`case when ${locks} then ${priorStrikes} + 1 else ${priorStrikes} end`,
        lockedUntil: sql`case when ${locks} then ${now}::timestamptz + ${lockMs} * interval '1 millisecond' else ${t.lockedUntil} end`,
      },
    })
    .returning();
  if (!row) throw new Error("throttle upsert returned no row");
  return row;
}
