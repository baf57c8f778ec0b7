import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const made: string[] = [];

/** A fresh directory in the system's temporary directory, removed when the test file ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `tarmac-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes the directories made so far (test/helpers/per-file-setup.ts calls it after each file). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
