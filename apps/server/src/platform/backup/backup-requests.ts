import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Platform } from "../platform.ts";
import { type BackupRequest, type BackupResult, controlFiles } from "./control-files.ts";
import { writeBackup } from "./embedded-backup.ts";

/** Marks DATA_DIR as served by this process and answers backup requests; the answer stops it. */
export function answerBackupRequests(platform: Platform, log: (line: string) => void): () => void {
  const dataDir = platform.config.DATA_DIR;
  const pidFile = path.join(dataDir, controlFiles.pid);
  writeFileSync(pidFile, `${process.pid}\n`);
  const onSignal = () =>
    void answer(platform).catch((error: unknown) => log(`backup failed: ${String(error)}`));
  process.on("SIGUSR2", onSignal);
  return () => {
    process.off("SIGUSR2", onSignal);
    rmSync(pidFile, { force: true });
  };
}

async function answer(platform: Platform): Promise<void> {
  const dataDir = platform.config.DATA_DIR;
  const requestFile = path.join(dataDir, controlFiles.request);
  if (!existsSync(requestFile)) return;
  const request = JSON.parse(readFileSync(requestFile, "utf8")) as BackupRequest;
  rmSync(requestFile, { force: true });
  if (!/^[\w-]{1,64}$/.test(request.id)) return;
  let result: BackupResult;
  try {
    const manifest = await writeBackup(
      {
        database: platform.database,
        dataDir,
        storageDir: platform.config.STORAGE_LOCAL_DIR,
        holdDeletions: (work) => platform.storage.holdDeletions(work),
      },
      request.target,
    );
    result = { ok: true, manifest };
  } catch (error) {
    result = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  // Written whole, then renamed: the command never reads half an answer.
  const resultFile = path.join(dataDir, controlFiles.result(request.id));
  await writeFile(`${resultFile}.part`, JSON.stringify(result));
  await rename(`${resultFile}.part`, resultFile);
}
