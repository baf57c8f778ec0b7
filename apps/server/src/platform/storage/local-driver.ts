import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Assembly, type PieceInput, pieceChunks, type StoredPiece } from "./assembly.ts";
import { meteredPut } from "./metered-put.ts";
import type { ProxyLinks } from "./proxy-links.ts";
import {
  assertValidKey,
  type ByteRange,
  type ObjectInfo,
  type SignedUrlOptions,
  type StorageDriver,
  StorageKeyError,
  type StoredObject,
} from "./storage-driver.ts";

const tempDirName = ".tmp";

/** Files under one root directory; writes land in .tmp first and are renamed into place. */
export class LocalStorageDriver implements StorageDriver {
  readonly name = "local";

  constructor(
    private readonly root: string,
    private readonly links: ProxyLinks,
  ) {}

  /** Maps a key to a path and proves the path stays under the root. */
  private pathOf(key: string): string {
    assertValidKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep))
      throw new StorageKeyError("key escapes storage root");
    return full;
  }

  put(key: string, body: Readable, options: { maxBytes?: number } = {}): Promise<StoredObject> {
    return meteredPut(key, body, options, (target, stream) => this.writeAtomically(target, stream));
  }

  /** Writes to a temporary file, syncs it and renames it into place: whole or not at all. */
  private async writeAtomically(key: string, stream: Readable): Promise<void> {
    const target = this.pathOf(key);
    const tempDir = path.join(this.root, tempDirName);
    await mkdir(tempDir, { recursive: true });
    const temp = path.join(tempDir, `${randomUUID()}.part`);
    try {
      await pipeline(stream, createWriteStream(temp, { flags: "wx" }));
      // fsync before rename: a crash must never leave a renamed but empty file behind.
      const handle = await open(temp, "r");
      await handle.sync();
      await handle.close();
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** The one file an assembly's pieces are written into, each at its offset. */
  private assemblyFile(assembly: Assembly): string {
    return this.pathOf(`${assembly.scratch}data`);
  }

  async startAssembly(key: string, scratch: string): Promise<Assembly> {
    const assembly = { key, scratch, handle: "" };
    this.pathOf(key);
    const file = this.assemblyFile(assembly);
    await mkdir(path.dirname(file), { recursive: true });
    await (await open(file, "w")).close();
    return assembly;
  }

  /**
   * Writes the piece at its offset, then syncs it while the caller goes on (`durable`): the
   * offset the database records is never ahead of the bytes on disk, yet the next piece does not
   * wait for the disk. A piece that fails leaves bytes past the last kept piece, which the next
   * piece overwrites.
   */
  async storePiece(assembly: Assembly, piece: PieceInput): Promise<StoredPiece> {
    const handle = await open(this.assemblyFile(assembly), "r+");
    let size = 0;
    try {
      const counted = (async function* () {
        for await (const chunk of pieceChunks(piece.body, piece.maxBytes)) {
          size += chunk.length;
          yield chunk;
        }
      })();
      await pipeline(
        Readable.from(counted, { objectMode: false }),
        // By descriptor: a stream on the FileHandle itself would keep the handle from closing.
        createWriteStream("", { fd: handle.fd, start: piece.offset, autoClose: false }),
      );
    } catch (error) {
      await handle.close();
      throw error;
    }
    const durable = handle.datasync().finally(() => handle.close());
    // Awaited by whoever records the piece; a failure must not also surface as unhandled.
    durable.catch(() => undefined);
    return { offset: piece.offset, size, objectKey: null, detail: null, durable };
  }

  async completeAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    const file = this.assemblyFile(assembly);
    const size = pieces.reduce((total, piece) => Math.max(total, piece.offset + piece.size), 0);
    // Bytes of a piece that broke off may lie past the end of the last kept one.
    const handle = await open(file, "r+");
    try {
      if ((await handle.stat()).size !== size) await handle.truncate(size);
    } finally {
      await handle.close();
    }
    const target = this.pathOf(assembly.key);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target);
  }

  async abortAssembly(assembly: Assembly): Promise<void> {
    await rm(this.assemblyFile(assembly), { force: true });
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file); // surfaces ENOENT before a stream is handed out
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { key, size: info.size, modifiedAt: info.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    const start = prefix ? this.pathOf(prefix.replace(/\/+$/, "")) : path.resolve(this.root);
    yield* this.walk(start);
  }

  private async *walk(dir: string): AsyncIterable<ObjectInfo> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (
        (error as NodeJS.ErrnoException).code === "ENOENT" ||
        (error as NodeJS.ErrnoException).code === "ENOTDIR"
      )
        return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== tempDirName) yield* this.walk(full);
      } else if (entry.isFile()) {
        // An object deleted while the listing runs is simply not listed.
        const info = await stat(full).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return null;
          throw error;
        });
        if (!info) continue;
        yield {
          key: path.relative(this.root, full).split(path.sep).join("/"),
          size: info.size,
          modifiedAt: info.mtime,
        };
      }
    }
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    return this.links.url(key, options);
  }

  async deleteStaleTemporaryFiles(olderThan: Date): Promise<number> {
    const tempDir = path.join(this.root, tempDirName);
    let names: string[];
    try {
      names = await readdir(tempDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw error;
    }
    let deleted = 0;
    for (const name of names) {
      if (!name.endsWith(".part")) continue;
      const file = path.join(tempDir, name);
      const info = await stat(file).catch(() => null);
      if (!info || info.mtime > olderThan) continue;
      await rm(file, { force: true });
      deleted += 1;
    }
    return deleted;
  }

  async checkHealth(): Promise<void> {
    const probe = path.join(this.root, tempDirName, `health-${randomUUID()}`);
    await mkdir(path.dirname(probe), { recursive: true });
    const handle = await open(probe, "w");
    await handle.close();
    await unlink(probe);
  }
}
