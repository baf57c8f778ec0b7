import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

// Registered when a test file first imports this helper: the file's directories go with it.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory in the system's temporary directory, removed when the test file ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `tarmac-${prefix}-`));
  made.push(dir);
  return dir;
}
