/**
 * Long fuzz run: `npm run fuzz -w packages/inspector [-- --cases N --seed S]`.
 * Prints outcome counts, the slowest case, and every failing seed (re-run one with --cases 1 --seed S).
 */
import { parseArgs } from "node:util";
import { describeCase, type FuzzCase, loadFixtures, makeCase, runCase } from "./fuzz-harness.ts";

const { values } = parseArgs({
  options: { cases: { type: "string", default: "5000" }, seed: { type: "string", default: "1" } },
});
const total = Number(values.cases);
const firstSeed = Number(values.seed);
if (!Number.isSafeInteger(total) || total < 1 || !Number.isSafeInteger(firstSeed)) {
  console.error("usage: fuzz-run [--cases N] [--seed S]");
  process.exit(2);
}

const fixtures = loadFixtures();
const counts = new Map<string, number>();
const failures: string[] = [];
let slowest: { ms: number; fuzzCase: FuzzCase } | null = null;
const started = performance.now();

for (let seed = firstSeed; seed < firstSeed + total; seed++) {
  const fuzzCase = makeCase(fixtures, seed);
  const outcome = await runCase(fuzzCase);
  const label =
    outcome.kind === "inspect-error"
      ? `InspectError ${outcome.reason}`
      : outcome.kind === "info"
        ? "BuildInfo"
        : outcome.kind;
  counts.set(label, (counts.get(label) ?? 0) + 1);
  if (!slowest || outcome.ms > slowest.ms) slowest = { ms: outcome.ms, fuzzCase };
  if (outcome.kind === "crash") failures.push(`${describeCase(fuzzCase)}\n  threw ${String(outcome.error)}`);
  if (outcome.kind === "timeout")
    failures.push(`${describeCase(fuzzCase)}\n  took ${outcome.ms.toFixed(0)} ms`);
}

const seconds = (performance.now() - started) / 1000;
console.log(
  `${total} cases over ${fixtures.length} fixtures in ${seconds.toFixed(1)} s (seeds ${firstSeed}..${firstSeed + total - 1})`,
);
for (const [label, count] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${label}: ${count}`);
if (slowest) console.log(`slowest: ${slowest.ms.toFixed(1)} ms, ${describeCase(slowest.fuzzCase)}`);
if (failures.length > 0) {
  console.log(`\n${failures.length} failing case(s):`);
  for (const failure of failures) console.log(failure);
  process.exitCode = 1;
}
