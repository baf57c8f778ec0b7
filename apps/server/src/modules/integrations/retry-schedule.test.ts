import { describe, expect, it } from "vitest";
import { maxAttempts, nextAttemptAt, retryDelaysSeconds } from "./retry-schedule.ts";

describe("webhook retry schedule", () => {
  const now = new Date("2026-01-01T00:00:00Z");

  it("spreads the retries over about a day", () => {
    const total = retryDelaysSeconds.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3600).toBeGreaterThan(24);
    expect(total / 3600).toBeLessThan(30);
    expect(maxAttempts).toBe(8);
  });

  it("waits longer after each failure, within a tenth of jitter", () => {
    const early = nextAttemptAt(1, now, () => 0) as Date;
    const late = nextAttemptAt(1, now, () => 1) as Date;
    expect((early.getTime() - now.getTime()) / 1000).toBeCloseTo(4.5);
    expect((late.getTime() - now.getTime()) / 1000).toBeCloseTo(5.5);
    const second = nextAttemptAt(2, now, () => 0.5) as Date;
    expect((second.getTime() - now.getTime()) / 1000).toBeCloseTo(300);
  });

  it("gives up after the last attempt", () => {
    expect(nextAttemptAt(maxAttempts - 1, now)).not.toBeNull();
    expect(nextAttemptAt(maxAttempts, now)).toBeNull();
  });
});
