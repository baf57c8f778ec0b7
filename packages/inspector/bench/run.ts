import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildLargeApk, buildLargeFiles } from "./build-large.ts";
import { type ProcessRun, processCommands, runProcessBench } from "./process-bench.ts";

/**
 * Times Tarmac's inspector against app-info-parser on a 300 MiB APK, a distribution IPA of about
 * 5,000 entries around 300 MiB of on-demand resources (see build-ipa.ts) and every committed
 * fixture. Each (tool, file) pair runs in its own child process so peak memory is its own.
 * BENCH_RUNS sets the number of timed runs per pair (median reported). First, whole processes
 * on the APK (process-bench.ts). BENCH_ONLY=process runs only those.
 */
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(packageDir, "bench/.out");
const runs = Number(process.env.BENCH_RUNS ?? 11);
const mib = 1024 * 1024;
const fmtMiB = (bytes: number) => (bytes / mib).toFixed(1);

interface Measurement {
  skipped?: string;
  outcome?: string;
  times?: number[];
  baselineRss?: number;
  peakRss?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function measure(tool: string, file: string, appType: string): Measurement {
  const child = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      "tsx",
      join(packageDir, "bench/worker.ts"),
      tool,
      file,
      String(runs),
      appType,
    ],
    { cwd: packageDir, encoding: "utf8", maxBuffer: 16 * mib },
  );
  if (child.status !== 0)
    return { skipped: `worker failed: ${(child.stderr || "").trim().split("\n").pop()}` };
  return JSON.parse(child.stdout) as Measurement;
}

function listFixtures(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...listFixtures(path));
    else if (
      /\.(apk|aab|ipa|msi|msix|msixbundle|msixupload|appx|appxbundle|appxupload|zip|dmg|pkg)$/i.test(name)
    )
      files.push(path);
  }
  return files;
}

/** Zip fixtures are read as macOS builds under fixtures/apple, Windows builds elsewhere. */
function appTypeFor(file: string): string {
  return file.includes("/fixtures/apple/") ? "3" : "";
}

const keystore = join(packageDir, "fixtures/android/keys/fixture.p12");
const only = process.env.BENCH_ONLY ?? "";

function reportProcesses(results: Record<string, ProcessRun[]>, size: string) {
  const pick = (list: ProcessRun[], key: keyof ProcessRun) => median(list.map((run) => run[key]));
  const ours = results["tarmac-inspect"] ?? [];
  const theirs = results["app-info-parser"] ?? [];
  console.log(`Whole process on the large APK (${size} MiB), median of ${runs}:`);
  for (const tool of Object.keys(processCommands)) {
    const list = results[tool] ?? [];
    console.log(
      `  ${tool.padEnd(34)} ${pick(list, "ms").toFixed(0).padStart(6)} ms  peak RSS ${pick(list, "peakRssMiB").toFixed(1)} MiB`,
    );
  }
  const speedup = pick(theirs, "ms") / pick(ours, "ms");
  const peak = Math.max(...ours.map((run) => run.peakRssMiB));
  console.log(
    `  tarmac-inspect: ${speedup.toFixed(2)}x app-info-parser's speed (target >= 2x: ${speedup >= 2 ? "met" : "MISSED"}); peak RSS max ${peak.toFixed(1)} MiB (target < 100 MB: ${peak * mib < 100e6 ? "met" : "MISSED"})\n`,
  );
}

if (only === "process") {
  console.log("Building the large APK (kept in bench/.out between runs)...");
  mkdirSync(outDir, { recursive: true });
  const apk = buildLargeApk(outDir, keystore);
  reportProcesses(await runProcessBench(packageDir, apk, runs), fmtMiB(statSync(apk).size));
  process.exit(0);
}

console.log("Building the large files (kept in bench/.out between runs)...");
const large = buildLargeFiles(outDir, keystore);
reportProcesses(await runProcessBench(packageDir, large.apk, runs), fmtMiB(statSync(large.apk).size));
const targets = [large.apk, large.ipa, ...listFixtures(join(packageDir, "fixtures"))];

const fmtMs = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
const rows: string[][] = [
  ["file", "size MiB", "tool", "result", "median ms", "first ms", "peak RSS MiB", "growth MiB", "speedup"],
];
const verdicts: string[] = [];
for (const file of targets) {
  const name = relative(packageDir, file);
  const size = fmtMiB(statSync(file).size);
  const ours = measure("tarmac", file, appTypeFor(file));
  const theirs = measure("app-info-parser", file, appTypeFor(file));
  const ourMedian = ours.times ? median(ours.times) : null;
  const theirMedian = theirs.times ? median(theirs.times) : null;
  const speedup = ourMedian && theirMedian ? theirMedian / ourMedian : null;
  for (const [tool, m] of [
    ["tarmac", ours],
    ["app-info-parser", theirs],
  ] as const) {
    rows.push([
      name,
      size,
      tool,
      m.skipped ? `skipped: ${m.skipped}` : (m.outcome ?? ""),
      m.times ? fmtMs(median(m.times)) : "-",
      m.times?.[0] !== undefined ? fmtMs(m.times[0]) : "-",
      m.peakRss ? fmtMiB(m.peakRss) : "-",
      m.peakRss && m.baselineRss ? fmtMiB(m.peakRss - m.baselineRss) : "-",
      tool === "tarmac" && speedup ? `${speedup.toFixed(1)}x` : "",
    ]);
  }
  if (file === large.apk || file === large.ipa) {
    const label = `${file === large.apk ? "large APK" : "large IPA"} (${size} MiB)`;
    if (ours.skipped) {
      verdicts.push(`${label}: not measured (${ours.skipped})`);
    } else {
      const growth = ((ours.peakRss ?? 0) - (ours.baselineRss ?? 0)) / mib;
      verdicts.push(
        `${label}: ${speedup ? `${speedup.toFixed(1)}x faster than app-info-parser (target >= 10x: ${speedup >= 10 ? "met" : "MISSED"})` : "no app-info-parser figure"}; memory growth ${growth.toFixed(1)} MiB (target < 50 MB: ${growth * mib < 50e6 ? "met" : "MISSED"})`,
      );
    }
  }
}

const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  "));
console.log(
  `\n${runs} runs per pair in one process (garbage collected between runs), median time; "first" is the cold run.`,
);
console.log("peak RSS = max of resourceUsage().maxRSS and the rss sampled after each run;");
console.log("growth = peak RSS minus rss right before the first run (modules already loaded).\n");
for (const verdict of verdicts) console.log(verdict);
