import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildLargeBundle } from "./aab-bundle.ts";

/**
 * Converts a 150 MiB bundle (see aab-bundle.ts: a large resource table from aapt2, native
 * libraries, assets and thousands of small files) to a universal APK in a child process, BENCH_RUNS times (default 3),
 * and reports the median time and the peak resident memory of the converting process.
 */
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(packageDir, "bench/.out");
const runs = Number(process.env.BENCH_RUNS ?? 3);
const mib = 1024 * 1024;

async function buildBundle(): Promise<string> {
  const path = join(outDir, "large.aab");
  if (existsSync(path)) return path;
  mkdirSync(outDir, { recursive: true });
  await buildLargeBundle(path, join(outDir, "aab-src"));
  return path;
}

/** The converter bundled to plain JavaScript, as the server runs in production (no TypeScript loader). */
async function buildWorker(): Promise<string> {
  const outfile = join(outDir, "aab-to-apk-worker.mjs");
  await build({
    entryPoints: [join(packageDir, "bench/aab-to-apk-worker.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "error",
  });
  return outfile;
}

const bundle = await buildBundle();
const worker = await buildWorker();
const output = join(outDir, "large-universal.apk");
const times: number[] = [];
const cpuTimes: number[] = [];
let peakKb = 0;
for (let run = 0; run < runs; run++) {
  const child = spawnSync(process.execPath, ["--import", "./bench/peak-rss.mjs", worker, bundle, output], {
    cwd: packageDir,
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`conversion failed: ${child.stderr}`);
  const result = JSON.parse(child.stdout) as { ms: number; cpuMs: number };
  times.push(result.ms);
  cpuTimes.push(result.cpuMs);
  peakKb = Math.max(peakKb, Number(/peak-rss-kb (\d+)/.exec(child.stderr)?.[1] ?? 0));
}
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
const size = (file: string) => `${(statSync(file).size / mib).toFixed(1)} MiB`;
console.log(`bundle ${size(bundle)} -> universal APK ${size(output)} (unsigned)`);
const median = (values: number[]) => ((values[Math.floor(values.length / 2)] ?? 0) / 1000).toFixed(2);
console.log(`median ${median(times)} s wall, ${median(cpuTimes)} s CPU, over ${runs} runs`);
console.log(`peak resident memory of the converting process ${(peakKb / 1024).toFixed(1)} MiB`);
// The conversion streams its entries: memory must not follow the bundle's size.
if (peakKb / 1024 >= 200) {
  console.error("the conversion went past 200 MiB of memory");
  process.exitCode = 1;
}
