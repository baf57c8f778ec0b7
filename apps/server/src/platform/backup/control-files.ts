import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { BackupManifest } from "./embedded-backup.ts";

/**
 * A backup of a running embedded instance is taken by the server itself (only its process may
 * open the database): the backup command writes a request into DATA_DIR and sends SIGUSR2; the
 * server answers in a result file. Only the server's own user can do either.
 */
export const controlFiles = {
  pid: "server.pid",
  request: "backup-request.json",
  result: (id: string) => `backup-result-${id}.json`,
};

export interface BackupRequest {
  id: string;
  target: string;
}

export type BackupResult = { ok: true; manifest: BackupManifest } | { ok: false; error: string };

/** The pid of the server running on `dataDir`, or null (none, or it ended without cleaning up). */
export function runningServer(dataDir: string): number | null {
  const file = path.join(dataDir, controlFiles.pid);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Files of the running server that a backup leaves out. */
export function isControlFile(dataDir: string, source: string): boolean {
  const name = path.relative(dataDir, source);
  return (
    name === controlFiles.pid || name === controlFiles.request || /^backup-result-[\w-]+\.json$/.test(name)
  );
}
