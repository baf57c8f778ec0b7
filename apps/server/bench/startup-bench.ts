/**
 * Server start-up as an operator meets it, one whole process at a time: cold (a fresh data
 * directory: the embedded database is created and migrated) and warm (the same directory again)
 * until /api/health/ready/ answers, and the resident memory once it idles. The built bundle
 * (`node dist/main.js`, what `npm start` runs) against the sources under the tsx loader, the way
 * the server used to run, in the same run.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error: the build script is plain JavaScript without type declarations.
import { buildServer } from "../../../scripts/build.mjs";

const serverDir = fileURLToPath(new URL("..", import.meta.url));

export const startCommands = {
  bundle: ["dist/main.js"],
  tsx: ["--import", "tsx", "src/main.ts"],
} as const;

export interface StartFigures {
  readyMs: number;
  idleRssMiB: number;
}

function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function startOnce(args: readonly string[], dataDir: string, port: number): Promise<StartFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, [...args], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${errors}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health/ready/`)
        .then((response) => response.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const readyMs = performance.now() - started;
    // Idle: the start-up garbage has had time to be collected and the scheduler to settle.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return { readyMs, idleRssMiB: residentMiB(child.pid as number) };
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  }
}

/** Median cold and warm figures per way of running, `runs` times each, alternating the two. */
export async function runStartupBench(runs: number) {
  await buildServer();
  const results: Record<keyof typeof startCommands, { cold: StartFigures[]; warm: StartFigures[] }> = {
    bundle: { cold: [], warm: [] },
    tsx: { cold: [], warm: [] },
  };
  let port = 39_000 + (process.pid % 1000);
  for (let run = 0; run < runs; run++) {
    for (const kind of Object.keys(startCommands) as (keyof typeof startCommands)[]) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-start-"));
      try {
        results[kind].cold.push(await startOnce(startCommands[kind], dataDir, port++));
        results[kind].warm.push(await startOnce(startCommands[kind], dataDir, port++));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return results;
}
