import { performance } from "node:perf_hooks";
import { convertAabToUniversalApk } from "../src/android/aab-to-apk/index.ts";

/** Converts one bundle in this fresh process and prints the time as JSON (peak memory comes from peak-rss.mjs). */
const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: aab-to-apk-worker.ts BUNDLE OUTPUT");
const started = performance.now();
const summary = await convertAabToUniversalApk(input, output);
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, ...summary })}\n`);
