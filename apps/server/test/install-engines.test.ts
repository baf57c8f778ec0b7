import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

// The README promises the oldest Node in the root "engines" field; every installed package must
// accept it, or `npm install` warns EBADENGINE and the package may use APIs that Node lacks.
const root = path.resolve(import.meta.dirname, "../../..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

describe("the promised Node version", () => {
  it("is accepted by every package in the lock file", () => {
    const promised = semver.minVersion(readJson("package.json").engines.node);
    expect(promised?.version).toBe("20.19.0");
    const packages = readJson("package-lock.json").packages as Record<
      string,
      { version?: string; engines?: { node?: string } }
    >;
    const refusing = Object.entries(packages)
      .filter(([, entry]) => entry.engines?.node)
      .filter(([, entry]) => !semver.satisfies(promised as semver.SemVer, entry.engines?.node ?? ""))
      .map(([name, entry]) => `${name}@${entry.version} needs node ${entry.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it("is the one the README states", () => {
    expect(readFileSync(path.join(root, "README.md"), "utf8")).toContain("Node.js 20.19 or newer");
  });
});
