import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
// @ts-expect-error: the build script is plain JavaScript without type declarations.
import { buildInspectorCli } from "../../../scripts/build.mjs";

/**
 * Whole processes, as a CI script meets them: start-up, reading the file and printing JSON,
 * wall time and peak resident memory of each run. `tarmac-inspect` (the built command) against
 * app-info-parser run as a command, and against the same command from its sources under tsx
 * (how it ran before it was built).
 */
export const processCommands = {
  "tarmac-inspect": "bin/tarmac-inspect.mjs",
  "tarmac-inspect under tsx (before)": "bench/cli-from-source.mjs",
  "app-info-parser": "bench/app-info-parser-cli.mjs",
} as const;
export type ProcessTool = keyof typeof processCommands;

export interface ProcessRun {
  ms: number;
  peakRssMiB: number;
}

function runOnce(packageDir: string, script: string, file: string): ProcessRun {
  const started = performance.now();
  const child = spawnSync(
    process.execPath,
    ["--import", join(packageDir, "bench/peak-rss.mjs"), join(packageDir, script), file],
    { cwd: packageDir, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${script} failed: ${child.stderr}`);
  const kb = Number(/peak-rss-kb (\d+)/.exec(child.stderr)?.[1] ?? Number.NaN);
  return { ms, peakRssMiB: kb / 1024 };
}

/** `runs` runs of each tool on `file`, interleaved so that machine noise hits all alike. */
export async function runProcessBench(packageDir: string, file: string, runs: number) {
  await buildInspectorCli();
  const results = Object.fromEntries(
    Object.keys(processCommands).map((tool) => [tool, [] as ProcessRun[]]),
  ) as Record<ProcessTool, ProcessRun[]>;
  for (let run = 0; run < runs; run++) {
    for (const [tool, script] of Object.entries(processCommands) as [ProcessTool, string][]) {
      results[tool].push(runOnce(packageDir, script, file));
    }
  }
  return results;
}
