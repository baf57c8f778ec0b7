import { describe, expect, it } from "vitest";
import { describeCase, loadFixtures, makeCase, runCase } from "./fuzz-harness.ts";

const fixtures = loadFixtures();
// Whole rounds over the fixtures, so every file gets the same number of cases.
const cases = Math.max(1, Math.ceil(400 / fixtures.length)) * fixtures.length;
const firstSeed = 20_240_101;

describe("fuzzing the inspector over every fixture", () => {
  it("finds fixtures from every platform", () => {
    expect(fixtures.length).toBeGreaterThan(10);
    expect(fixtures.some((fixture) => fixture.path.startsWith("windows/"))).toBe(true);
  });

  it(`ends ${cases} mutated files in an InspectError or a BuildInfo within the time bound`, async () => {
    const failures: string[] = [];
    const kinds = { info: 0, "inspect-error": 0 };
    const covered = new Set<string>();
    for (let seed = firstSeed; seed < firstSeed + cases; seed++) {
      const fuzzCase = makeCase(fixtures, seed);
      covered.add(fuzzCase.fixture);
      const outcome = await runCase(fuzzCase);
      if (outcome.kind === "crash") failures.push(`${describeCase(fuzzCase)} threw ${String(outcome.error)}`);
      else if (outcome.kind === "timeout")
        failures.push(`${describeCase(fuzzCase)} took ${outcome.ms.toFixed(0)} ms`);
      else kinds[outcome.kind] += 1;
    }
    expect(failures).toEqual([]);
    expect(covered.size).toBe(fixtures.length);
    // Both ends occur, so the mutations neither always break nor never touch the structure.
    expect(kinds.info).toBeGreaterThan(0);
    expect(kinds["inspect-error"]).toBeGreaterThan(0);
  }, 120_000);

  it("makes the same case from the same seed", () => {
    const first = makeCase(fixtures, 7);
    const again = makeCase(fixtures, 7);
    expect(describeCase(again)).toBe(describeCase(first));
    expect(again.data.equals(first.data)).toBe(true);
  });
});
