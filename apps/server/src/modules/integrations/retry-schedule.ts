/**
 * Seconds to wait before each retry after a failed attempt: quickly at first (a restarting
 * receiver), then spread over about a day (27.6 hours in all), as Standard Webhooks senders do.
 */
export const retryDelaysSeconds = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

/** Attempts in all: the first and one per retry delay. */
export const maxAttempts = retryDelaysSeconds.length + 1;

/**
 * When the next attempt is due after `attempts` failed ones, or null when they are used up. A
 * tenth either way of jitter keeps the receivers of one outage from being hit all at once.
 */
export function nextAttemptAt(attempts: number, now: Date, random: () => number = Math.random): Date | null {
  const delay = retryDelaysSeconds[attempts - 1];
  if (delay === undefined) return null;
  const jitter = 1 + (random() * 2 - 1) * 0.1;
  return new Date(now.getTime() + delay * jitter * 1000);
}
