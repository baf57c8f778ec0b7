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

const readerModules: Record<string, [string, string]> = {
  apk: ["apk.ts", "inspectApk"],
  aab: ["aab.ts", "inspectAab"],
  ipa: ["ipa.ts", "inspectIpa"],
  msi: ["msi.ts", "inspectMsi"],
  dmg: ["dmg.ts", "inspectDmg"],
  pkg: ["pkg.ts", "inspectPkg"],
};

async function loadTarmac(): Promise<Runner | string> {
  const { detectType } = await import("../src/rules.ts");
  const detected = detectType(file as string, appTypeHint);
  if (!detected) return "not an accepted extension";
  const options = { fileName: file as string, appTypeHint };
  try {
    const { inspect } = await import("../src/inspect.ts");
    return () => inspect(file as string, options);
  } catch {
    // The dispatcher needs every reader; without some of them, call this format's reader directly.
  }
  const { fileSource } = await import("../src/source.ts");
  const [moduleFile, exportName] =
    detected.fileType === "zip"
      ? detected.appType === 3
        ? ["macos-zip.ts", "inspectMacZip"]
        : ["windows-zip.ts", "inspectWindowsZip"]
      : (readerModules[detected.fileType] ?? ["msix.ts", "inspectMsix"]);
  let reader: (s: unknown, o: unknown, t: string) => Promise<unknown>;
  try {
    reader = (await import(`../src/formats/${moduleFile}`))[exportName];
  } catch {
    return `reader src/formats/${moduleFile} missing`;
  }
  return async () => {
    const source = await fileSource(file as string);
    try {
      return await reader(source, options, detected.fileType);
    } finally {
      await source.close?.();
    }
  };
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
