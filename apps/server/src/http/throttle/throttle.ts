import type { Database } from "../../platform/db/client.ts";
import { AppError } from "../errors.ts";
import { countThrottleEvent } from "./throttle.repo.ts";

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
