import { performance } from "node:perf_hooks";
import { convertAabToUniversalApk } from "../src/android/aab-to-apk/index.ts";

/**
 * Converts one bundle in this fresh process and prints its wall and CPU time as JSON (CPU time
 * stays meaningful on a busy machine; peak memory comes from peak-rss.mjs).
 */
const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: aab-to-apk-worker.ts BUNDLE OUTPUT");
const started = performance.now();
const summary = await convertAabToUniversalApk(input, output);
const cpu = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({ ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, ...summary })}\n`,
);
