import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export interface Digests {
  sha1: Buffer;
  sha256: Buffer;
}

export function digestsOf(bytes: Buffer): Digests {
  return {
    sha1: createHash("sha1").update(bytes).digest(),
    sha256: createHash("sha256").update(bytes).digest(),
  };
}

/** Files bigger than this wait on disk, not in memory, until the archive is written. */
const spillBytes = 4 * 1024 * 1024;

/**
 * The new content of every file a re-signing changes or adds, by archive path. Signed binaries
 * can be large and an app holds many: past a few MiB each waits in a scratch file, so memory
 * holds one binary at a time however many frameworks the app has.
 */
export class ReplacedFiles {
  private readonly inMemory = new Map<string, Buffer>();
  private readonly onDisk = new Map<string, string>();
  private readonly digests = new Map<string, Digests>();

  constructor(private readonly scratch: string) {}

  async set(name: string, bytes: Buffer): Promise<void> {
    this.digests.set(name, digestsOf(bytes));
    if (bytes.length <= spillBytes) {
      this.inMemory.set(name, bytes);
      return;
    }
    const file = path.join(this.scratch, `${this.onDisk.size + 1}.bin`);
    await writeFile(file, bytes);
    this.inMemory.delete(name);
    this.onDisk.set(name, file);
  }

  has(name: string): boolean {
    return this.digests.has(name);
  }

  names(): string[] {
    return [...this.digests.keys()];
  }

  digest(name: string): Digests | undefined {
    return this.digests.get(name);
  }

  async read(name: string): Promise<Buffer | undefined> {
    const file = this.onDisk.get(name);
    return file ? readFile(file) : this.inMemory.get(name);
  }
}
