import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { DatabaseHandle } from "../db/client.ts";
import { pgliteExtensions } from "../db/client.ts";
import { isControlFile } from "./control-files.ts";

/**
 * Backups of the embedded default: the database and DATA_DIR's files (the secret key that opens
 * the stored secrets, the local storage, the signing certificate) in one folder.
 *
 *   manifest.json          written last: a folder without it is not a backup
 *   database.tar.gz        the embedded database's files, dumped between two statements
 *   files/…                DATA_DIR without db/ and without unfinished uploads (storage/.tmp)
 *   storage/…              the local storage, when STORAGE_LOCAL_DIR is outside DATA_DIR
 */
export interface BackupManifest {
  format: 1;
  created_at: string;
  /** Files copied, the database dump not counted. */
  files: number;
}

export interface BackupSources {
  database: DatabaseHandle;
  dataDir: string;
  storageDir: string;
  /** Runs the copy while no stored file may be deleted (RoutedStorage.holdDeletions). */
  holdDeletions?: <T>(work: () => Promise<T>) => Promise<T>;
}

export class BackupError extends Error {
  override readonly name = "BackupError";
}

const manifestName = "manifest.json";
const databaseName = "database.tar.gz";

/** `child` is `parent` or lies somewhere under it (both absolute). */
function isWithin(child: string, parent: string): boolean {
  return child === parent || child.startsWith(`${parent}${path.sep}`);
}

async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

async function copyTree(from: string, to: string, skip: (source: string) => boolean): Promise<number> {
  let files = 0;
  await cp(from, to, {
    recursive: true,
    filter: async (source) => {
      if (skip(source)) return false;
      if ((await stat(source)).isFile()) files += 1;
      return true;
    },
  });
  return files;
}

/**
 * Dumps the database first, then copies the files with deletions held back: every file a row of
 * the dump names is in the copy (files added meanwhile are copied too, unreferenced, and swept).
 */
export async function writeBackup(sources: BackupSources, target: string): Promise<BackupManifest> {
  if (!sources.database.dumpDataDir) {
    throw new BackupError(
      "This instance runs on PostgreSQL: back it up with pg_dump (see docs/operations.md, Backups).",
    );
  }
  if (!(await isEmptyOrAbsent(target))) throw new BackupError(`${target} is not empty: name a new folder.`);
  await mkdir(target, { recursive: true });
  const dataDir = path.resolve(sources.dataDir);
  const storageDir = path.resolve(sources.storageDir);
  const targetDir = path.resolve(target);
  const hold = sources.holdDeletions ?? (<T>(work: () => Promise<T>) => work());
  const files = await hold(async () => {
    const dump = await sources.database.dumpDataDir?.();
    if (!dump) throw new BackupError("The database could not be dumped.");
    await writeFile(path.join(targetDir, databaseName), Buffer.from(await dump.arrayBuffer()));
    const skipped = [path.join(dataDir, "db"), path.join(storageDir, ".tmp"), targetDir];
    const skip = (source: string) =>
      isControlFile(dataDir, source) || skipped.some((dir) => isWithin(source, dir));
    let copied = await copyTree(dataDir, path.join(targetDir, "files"), skip);
    const storageInside = isWithin(storageDir, dataDir);
    if (!storageInside) copied += await copyTree(storageDir, path.join(targetDir, "storage"), skip);
    return copied;
  });
  const manifest: BackupManifest = { format: 1, created_at: new Date().toISOString(), files };
  await writeFile(path.join(targetDir, manifestName), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Reads a backup's manifest, refusing a folder that is not a whole backup. */
export async function readManifest(backup: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(backup, manifestName), "utf8")) as BackupManifest;
  } catch {
    throw new BackupError(`${backup} holds no finished backup (no readable ${manifestName}).`);
  }
  if (manifest.format !== 1) throw new BackupError(`${backup} is a backup of an unknown format.`);
  return manifest;
}

/**
 * Restores a backup into an empty DATA_DIR (and STORAGE_LOCAL_DIR), with the server stopped:
 * nothing is overwritten, so a mistaken restore cannot destroy an instance.
 */
export async function restoreBackup(
  backup: string,
  dataDir: string,
  storageDir: string,
): Promise<BackupManifest> {
  const manifest = await readManifest(backup);
  if (!(await isEmptyOrAbsent(dataDir))) {
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty: restore into an empty folder (move the old one away).`,
    );
  }
  const storageInside = isWithin(path.resolve(storageDir), path.resolve(dataDir));
  if (!storageInside && !(await isEmptyOrAbsent(storageDir))) {
    throw new BackupError(`STORAGE_LOCAL_DIR ${storageDir} is not empty: restore into an empty folder.`);
  }
  try {
    await cp(path.join(backup, "files"), dataDir, { recursive: true });
    if (!storageInside)
      await cp(path.join(backup, "storage"), storageDir, { recursive: true }).catch(ignoreAbsent);
    const dump = await readFile(path.join(backup, databaseName));
    const client = await PGlite.create({
      dataDir: path.join(dataDir, "db"),
      loadDataDir: new Blob([dump]),
      extensions: pgliteExtensions,
    });
    await client.query("select 1");
    await client.close();
  } catch (error) {
    // A half-restored DATA_DIR must not look like an instance. The folders are emptied, not
    // removed: one may be a mount point (a container's volume), which cannot be removed, and a
    // failure to clean up must not hide why the restore failed.
    await emptyFolder(dataDir).catch(() => undefined);
    if (!storageInside) await emptyFolder(storageDir).catch(() => undefined);
    throw error;
  }
  return manifest;
}

async function emptyFolder(folder: string): Promise<void> {
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  for (const entry of entries) await rm(path.join(folder, entry), { recursive: true, force: true });
}

function ignoreAbsent(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}
