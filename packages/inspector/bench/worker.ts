import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

/**
 * Runs one tool on one file `runs` times in this fresh process and prints JSON with the
 * per-run times and the memory the process reached beyond its state right before the first run.
 */
type Runner = () => Promise<unknown>;

const [tool, file, runsArg, appTypeArg] = process.argv.slice(2);
if (!tool || !file) throw new Error("usage: worker.ts TOOL FILE RUNS [APP_TYPE]");
const runs = Number(runsArg ?? 5);
const appTypeHint =
  appTypeArg === undefined || appTypeArg === "" ? undefined : (Number(appTypeArg) as 0 | 1 | 2 | 3);

async function loadTarmac(): Promise<Runner | string> {
  const { detectType } = await import("../src/rules.ts");
  if (!detectType(file as string, appTypeHint)) return "not an accepted extension";
  const { inspect } = await import("../src/inspect.ts");
  const options = { fileName: file as string, appTypeHint };
  return () => inspect(file as string, options);
}

async function loadAppInfoParser(): Promise<Runner | string> {
  if (!/\.(apk|ipa)$/i.test(file as string)) return "reads only .apk and .ipa";
  const AppInfoParser = createRequire(import.meta.url)("app-info-parser");
  return () => new AppInfoParser(file).parse();
}

const runner = tool === "tarmac" ? await loadTarmac() : await loadAppInfoParser();
if (typeof runner === "string") {
  process.stdout.write(JSON.stringify({ skipped: runner }));
} else {
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  const times: number[] = [];
  let outcome = "ok";
  let peakRss = baseline;
  for (let i = 0; i < runs; i++) {
    // Collecting between runs makes the peak that of one inspection, not of garbage piled up by earlier runs.
    globalThis.gc?.();
    const start = performance.now();
    try {
      await runner();
    } catch (error) {
      const e = error as { name?: string; reason?: string; message?: string };
      outcome = e.name === "InspectError" ? `InspectError(${e.reason})` : `error: ${e.message}`;
    }
    times.push(performance.now() - start);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  const maxRss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(
    JSON.stringify({ outcome, times, baselineRss: baseline, peakRss: Math.max(peakRss, maxRss), maxRss }),
  );
}
