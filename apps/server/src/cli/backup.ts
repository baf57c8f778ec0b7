/**
 * Backups of the embedded default (database and DATA_DIR's files, consistent with each other):
 *   npm run backup -- DIR     while the server runs (it takes the backup) or while it is stopped
 *   npm run restore -- DIR    into an empty DATA_DIR, with the server stopped
 * PostgreSQL and buckets have their own tools (pg_dump, bucket versioning): see docs/operations.md.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDirectories } from "../config.ts";
import {
  type BackupRequest,
  type BackupResult,
  controlFiles,
  runningServer,
} from "../platform/backup/control-files.ts";
import {
  BackupError,
  type BackupManifest,
  restoreBackup,
  writeBackup,
} from "../platform/backup/embedded-backup.ts";
import { openPglite } from "../platform/db/client.ts";

const answerTimeoutMs = 30 * 60 * 1000;

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** Asks the running server for the backup and waits for its answer. */
async function askServer(pid: number, dataDir: string, target: string): Promise<BackupManifest> {
  const request: BackupRequest = { id: randomUUID(), target };
  const resultFile = path.join(dataDir, controlFiles.result(request.id));
  writeFileSync(path.join(dataDir, controlFiles.request), JSON.stringify(request));
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + answerTimeoutMs;
  while (!existsSync(resultFile)) {
    if (Date.now() > deadline) fail("The server did not answer the backup request within 30 minutes.");
    if (runningServer(dataDir) === null) fail("The server stopped before it answered the backup request.");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const result = JSON.parse(readFileSync(resultFile, "utf8")) as BackupResult;
  rmSync(resultFile, { force: true });
  if (!result.ok) fail(result.error);
  return result.manifest;
}

/** By the running server when there is one; otherwise from the stopped instance's folders. */
async function backup(target: string, dataDir: string, storageDir: string): Promise<BackupManifest> {
  const pid = runningServer(dataDir);
  if (pid !== null) return askServer(pid, dataDir, target);
  if (!existsSync(path.join(dataDir, "db"))) fail(`DATA_DIR ${dataDir} holds no database.`);
  const database = await openPglite(dataDir);
  try {
    return await writeBackup({ database, dataDir, storageDir }, target);
  } finally {
    await database.close();
  }
}

const [command, dir] = process.argv.slice(2);
if ((command !== "backup" && command !== "restore") || !dir) fail("usage: backup|restore DIR");
if (process.env.DATABASE_URL) {
  fail(
    "DATABASE_URL is set: back PostgreSQL up with pg_dump and the bucket with its own tools (see docs/operations.md, Backups).",
  );
}
// Only the folders are needed: the whole configuration would create a key in an empty DATA_DIR.
const { dataDir, storageDir } = dataDirectories();
const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
try {
  if (command === "backup") {
    const manifest = await backup(target, dataDir, storageDir);
    process.stdout.write(`backed up the database and ${manifest.files} files to ${target}\n`);
  } else {
    if (runningServer(dataDir) !== null) fail("The server is running on DATA_DIR: stop it before restoring.");
    const manifest = await restoreBackup(target, dataDir, storageDir);
    process.stdout.write(`restored the backup of ${manifest.created_at} into ${dataDir}\n`);
  }
} catch (error) {
  fail(error instanceof BackupError ? error.message : `${command} failed: ${String(error)}`);
}
