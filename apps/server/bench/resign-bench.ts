/**
 * Re-signing a large IPA (BENCH_RESIGN_MIB of incompressible resource, default 300, plus the
 * fixture's real app, fat framework, extension and dylib): wall time and the peak resident
 * memory of a separate process that does only the re-signing, as the job's worker does it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ResignFigures {
  ipaMib: number;
  seconds: number;
  peakRssMb: number;
}

export function runResignBench(resourceMib = Number(process.env.BENCH_RESIGN_MIB ?? 300)): ResignFigures {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tarmac-resign-bench-"));
  try {
    const script = path.join(here, "..", "test", "ios-signing", "fixtures", "make-resign-fixtures.sh");
    execFileSync("bash", [script, dir, String(resourceMib)], { stdio: "pipe" });
    const child = spawnSync(process.execPath, ["--import", "tsx", path.join(here, "resign-worker.ts"), dir], {
      cwd: path.join(here, ".."),
      encoding: "utf8",
    });
    if (child.status !== 0) throw new Error(`re-signing failed: ${child.stderr}`);
    const figures = JSON.parse(child.stdout.trim().split("\n").pop() as string) as {
      seconds: number;
      peakRssKb: number;
    };
    return {
      ipaMib: statSync(path.join(dir, "demo.ipa")).size / 1024 / 1024,
      seconds: figures.seconds,
      peakRssMb: figures.peakRssKb / 1024,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const figures = runResignBench();
  console.log(
    `re-sign ${figures.ipaMib.toFixed(0)} MiB IPA: ${figures.seconds.toFixed(2)} s, peak RSS ${figures.peakRssMb.toFixed(0)} MB`,
  );
}
