// Reading entries of the IPA being re-signed as streams: digests of files that stay as they
// are, and whole binaries that are about to be signed.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { createInflateRaw } from "node:zlib";
import type { ZipEntry } from "../../zip/types.ts";
import type { Digests } from "./replaced-files.ts";
import { entryDataOffset } from "./zip-writer.ts";

export async function streamDigests(file: string, handle: FileHandle, entry: ZipEntry): Promise<Digests> {
  const sha1 = createHash("sha1");
  const sha256 = createHash("sha256");
  if (entry.uncompressedSize > 0) {
    const start = await entryDataOffset(handle, entry);
    const raw = createReadStream(file, {
      start,
      end: start + entry.compressedSize - 1,
      highWaterMark: 1 << 20,
    });
    const stream = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
    for await (const chunk of stream) {
      sha1.update(chunk as Buffer);
      sha256.update(chunk as Buffer);
    }
  }
  return { sha1: sha1.digest(), sha256: sha256.digest() };
}

const maxBinaryBytes = 1536 * 1024 * 1024;

/**
 * One entry's bytes, inflated as they stream. Binaries often compress far better than the
 * inspector's bomb guard allows (constant tables, padding), so the declared size is the bound:
 * more output than declared, or a declared size past any real binary, is refused.
 */
export async function readWholeEntry(file: string, handle: FileHandle, entry: ZipEntry): Promise<Buffer> {
  if (entry.uncompressedSize > maxBinaryBytes) throw new Error(`${entry.name} is too large to re-sign`);
  const out = Buffer.allocUnsafe(entry.uncompressedSize);
  let length = 0;
  if (entry.uncompressedSize > 0) {
    const start = await entryDataOffset(handle, entry);
    const raw = createReadStream(file, {
      start,
      end: start + entry.compressedSize - 1,
      highWaterMark: 1 << 20,
    });
    for await (const chunk of entry.method === 8 ? raw.pipe(createInflateRaw()) : raw) {
      const bytes = chunk as Buffer;
      if (length + bytes.length > out.length)
        throw new Error(`${entry.name} inflates past its declared size`);
      bytes.copy(out, length);
      length += bytes.length;
    }
  }
  if (length !== out.length) throw new Error(`${entry.name} is shorter than its declared size`);
  return out;
}
