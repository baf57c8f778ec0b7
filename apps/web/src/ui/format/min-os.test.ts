import { describe, expect, it } from "vitest";
import { minimumSystem } from "./min-os.ts";

describe("minimum system as people say it", () => {
  it.each([
    ["android", "26", "Android 8.0 (API 26)"],
    ["android", "21", "Android 5.0 (API 21)"],
    ["android", "99", "Android API 99"],
    [1, "15.0", "iOS 15.0"],
    ["macos", "10.8", "macOS 10.8"],
    [2, "10.0.17763.0", "Windows 10.0.17763.0"],
  ] as const)("%s %s -> %s", (platform, value, expected) => {
    expect(minimumSystem(platform, value)).toBe(expected);
  });

  it("says nothing without a value", () => {
    expect(minimumSystem("ios", null)).toBeNull();
  });
});
