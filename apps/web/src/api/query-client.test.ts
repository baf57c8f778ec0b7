import { describe, expect, it } from "vitest";
import { ApiError } from "./client.ts";
import { shouldRetry } from "./query-client.ts";

describe("query retry policy", () => {
  it("never retries 4xx answers", () => {
    expect(shouldRetry(0, new ApiError(404, null, "Not found."))).toBe(false);
    expect(shouldRetry(0, new ApiError(401, null, "Server Error"))).toBe(false);
  });

  it("retries server and network failures twice", () => {
    const error = new ApiError(503, null, "Server Error");
    expect([0, 1, 2].map((count) => shouldRetry(count, error))).toEqual([true, true, false]);
    expect(shouldRetry(0, new ApiError(0, null, "Server Error"))).toBe(true);
  });
});
