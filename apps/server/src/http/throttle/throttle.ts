import type { Database } from "../../platform/db/client.ts";
import { AppError } from "../errors.ts";
import { clearThrottle, countBackoffFailure, countThrottleEvent, findThrottleRows } from "./throttle.repo.ts";

/** A 429 that tells the client when to come back; routes copy the delay into Retry-After. */
export class ThrottleError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    detail: string,
  ) {
    super("throttled", 429, detail);
  }
}

export function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** A plain rate limit (N per window) kept in the shared throttle table. */
export async function enforceRateLimit(
  db: Database,
  key: string,
  limit: number,
  windowMs: number,
  now = new Date(),
): Promise<void> {
  const row = await countThrottleEvent(db, key, { limit: limit + 1, windowMs, now });
  if (row.failures > limit) {
    const retryAfter = Math.max(
      1,
      Math.ceil((row.windowStartedAt.getTime() + windowMs - now.getTime()) / 1000),
    );
    throw new ThrottleError(retryAfter, `Too many requests. Try again in ${minutesText(retryAfter)}.`);
  }
}

export interface LockoutRule {
  /** Failures within the window that lock the key. */
  failures: number;
  windowMs: number;
  lockMs: number;
}

/** 429 while any of the keys is locked; the delay is the longest lock. */
export async function assertNotLocked(db: Database, keys: string[], now = new Date()): Promise<void> {
  const rows = await findThrottleRows(db, keys);
  const until = Math.max(0, ...rows.map((row) => row.lockedUntil?.getTime() ?? 0));
  if (until > now.getTime()) {
    const seconds = Math.ceil((until - now.getTime()) / 1000);
    throw new ThrottleError(seconds, `Too many failed attempts. Try again in ${minutesText(seconds)}.`);
  }
}

/** Counts one failure for each key; a key that reaches its rule's failures is locked. */
export async function recordFailures(
  db: Database,
  rules: [key: string, rule: LockoutRule][],
  now = new Date(),
) {
  for (const [key, rule] of rules) {
    await countThrottleEvent(db, key, {
      limit: rule.failures,
      windowMs: rule.windowMs,
      lockMs: rule.lockMs,
      now,
    });
  }
}

/** A person's checks of their own password or second factor inside a session: like login. */
export const ownCredentialRule: LockoutRule = {
  failures: 5,
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
};

/**
 * Runs a check of a password or code the signed-in person typed (changing the password,
 * turning off 2FA, closing the account or an organization). Each wrong answer counts; enough of
 * them lock the person's checks for a while (429), so a stolen session cannot guess its way to
 * the password; a right answer clears the count.
 */
export async function checkOwnCredential(db: Database, userId: number, check: () => Promise<boolean>) {
  const key = `credential-check:user:${userId}`;
  await assertNotLocked(db, [key]);
  if (!(await check())) {
    await recordFailures(db, [[key, ownCredentialRule]]);
    return false;
  }
  await clearThrottle(db, key);
  return true;
}

/** Failures that lock a key for longer each time it is locked again (see countBackoffFailure). */
export interface BackoffRule {
  failures: number;
  windowMs: number;
  baseLockMs: number;
  maxLockMs: number;
  /** A key quiet this long after its last lock starts again from the base lock. */
  forgiveMs: number;
}

/** Counts one failure under a backoff rule; true when this failure locked the key. */
export async function recordBackoffFailure(
  db: Database,
  key: string,
  rule: BackoffRule,
  now = new Date(),
): Promise<boolean> {
  const { failures: limit, ...rest } = rule;
  const row = await countBackoffFailure(db, key, { limit, ...rest }, now);
  return row.failures >= limit && (row.lockedUntil?.getTime() ?? 0) > now.getTime();
}

/**
 * Counts one event for `key` in a fixed window of `windowMs` that starts at its first event:
 * the count so far in the window (this one included) and when the window started.
 */
export async function countInWindow(db: Database, key: string, windowMs: number, now = new Date()) {
  const row = await countThrottleEvent(db, key, { limit: 2 ** 31 - 1, windowMs, now });
  return { count: row.failures, windowStartedAt: row.windowStartedAt };
}

/**
 * True once per `windowMs` for `key` (a notice not to repeat, such as telling an owner about an
 * attack): the first caller in the window gets true, everyone after it false.
 */
export async function claimOncePer(db: Database, key: string, windowMs: number, now = new Date()) {
  return (await countInWindow(db, key, windowMs, now)).count === 1;
}

/** The events counted for `key`, forgotten as they are read (a digest tells of them once). */
export function takeCount(db: Database, key: string): Promise<number> {
  return clearThrottle(db, key);
}
