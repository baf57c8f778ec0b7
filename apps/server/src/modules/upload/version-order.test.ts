import { describe, expect, it } from "vitest";
import { compareBuilds, compareDotted, newestBuild } from "./version-order.ts";

describe("compareDotted", () => {
  it.each([
    ["1.9", "1.10", -1],
    ["1.10", "1.9", 1],
    ["2", "2.0", 0],
    ["2.0.1", "2.0", 1],
    ["010", "9", 1],
    ["1.0-beta", "1.0-alpha", 1],
    ["abc", "abd", -1],
    ["12345678901234567890", "12345678901234567891", -1],
  ])("%s vs %s -> %i", (left, right, expected) => {
    expect(Math.sign(compareDotted(left, right))).toBe(expected);
  });
});

describe("compareBuilds", () => {
  it("orders by version, then build number", () => {
    expect(compareBuilds({ version: "1.2", buildNumber: "9" }, { version: "1.10", buildNumber: "1" })).toBe(
      -1,
    );
    expect(compareBuilds({ version: "1.2", buildNumber: "10" }, { version: "1.2", buildNumber: "9" })).toBe(
      1,
    );
  });

  it("finds the newest", () => {
    expect(
      newestBuild([
        { version: "1.2", buildNumber: "3" },
        { version: "1.10", buildNumber: "1" },
        { version: "1.9", buildNumber: "99" },
      ]),
    ).toEqual({ version: "1.10", buildNumber: "1" });
    expect(newestBuild([])).toBeNull();
  });
});
