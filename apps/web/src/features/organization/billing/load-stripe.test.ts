import { afterEach, describe, expect, it, vi } from "vitest";
import { StripeUnavailableError, settleWithin } from "./load-stripe.ts";

describe("settleWithin", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives up on a script that never answers", async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => {});
    const settled = settleWithin(never, 15_000);
    const outcome = expect(settled).rejects.toBeInstanceOf(StripeUnavailableError);
    await vi.advanceTimersByTimeAsync(15_000);
    await outcome;
  });

  it("passes on what settles in time, value or failure", async () => {
    await expect(settleWithin(Promise.resolve("stripe"), 1000)).resolves.toBe("stripe");
    const failure = new Error("Failed to load Stripe.js");
    await expect(settleWithin(Promise.reject(failure), 1000)).rejects.toBe(failure);
  });
});
