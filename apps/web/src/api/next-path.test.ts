import { describe, expect, it } from "vitest";
import { loginPathFor, safeNextPath } from "./next-path.ts";

describe("the next page after sign-in", () => {
  it.each([
    ["/getapp/abc", "/getapp/abc"],
    ["/dashboard/apps/3?tab=builds#top", "/dashboard/apps/3?tab=builds#top"],
    ["//evil.example/x", null],
    ["/\\evil.example", null],
    ["https://evil.example/", null],
    ["javascript:alert(1)", null],
    ["/login?next=/x", null],
    ["", null],
    [null, null],
  ])("%s -> %s", (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });

  it("builds the sign-in link of a page", () => {
    expect(loginPathFor("/getapp/abc")).toBe("/login?next=%2Fgetapp%2Fabc");
    expect(loginPathFor("/")).toBe("/login");
    expect(loginPathFor("//evil.example")).toBe("/login");
  });
});
