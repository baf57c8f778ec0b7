import { crc32, inflateRawSync } from "node:zlib";
import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import type { ByteSource } from "../source.ts";
import type { ZipEntry } from "./types.ts";

const localSignature = 0x04034b50;
const localHeaderSize = 30;
const bombCheckFloor = 1024 * 1024;
/** Room for a typical local name and extra field (zipalign padding included) in the first read. */
const localSlack = 512;

function corrupt(message: string): never {
  throw new InspectError("corrupt", message);
}

function checkBounds(entry: ZipEntry, maxBytes: number): void {
  if (entry.isDirectory) corrupt(`${entry.name} is a directory`);
  if (((entry.flags ?? 0) & 1) !== 0) corrupt(`${entry.name} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8)
    corrupt(`${entry.name} uses unsupported compression method ${entry.method}`);
  if (entry.uncompressedSize > maxBytes) {
    throw new InspectError(
      "limit_exceeded",
      `${entry.name} is too large (${entry.uncompressedSize} > ${maxBytes} bytes)`,
    );
  }
  // Deflate never expands more than a few bytes per 16 KiB block, so anything beyond this is bogus.
  if (entry.compressedSize > entry.uncompressedSize + (entry.uncompressedSize >> 10) + 1024) {
    corrupt(`${entry.name} declares a compressed size larger than deflate can produce`);
  }
  if (
    entry.uncompressedSize > bombCheckFloor &&
    entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxCompressionRatio
  ) {
    throw new InspectError("limit_exceeded", `${entry.name} has a suspicious compression ratio`);
  }
}

function inflate(data: Buffer, entry: ZipEntry): Buffer {
  try {
    // One byte of headroom turns a too-small declared size into a length mismatch instead of a silent cut.
    return inflateRawSync(data, { maxOutputLength: entry.uncompressedSize + 1 });
  } catch (error) {
    if (error instanceof RangeError) corrupt(`${entry.name} inflates past its declared size`);
    corrupt(`${entry.name} has broken deflate data: ${(error as Error).message}`);
  }
}

/**
 * Reads one entry: the local header only tells where the data starts (its name and extra
 * lengths may differ from the central copy); sizes and CRC come from the central directory.
 */
export async function readEntry(
  source: ByteSource,
  entry: ZipEntry,
  maxBytes = limits.maxEntryBytes,
): Promise<Buffer> {
  checkBounds(entry, maxBytes);
  // One read usually covers the local header, its name and extra field, and the data; the
  // local name/extra lengths are only known after it, so a second read follows when they are long.
  const guess = Math.min(
    localHeaderSize + localSlack + entry.compressedSize,
    source.size - entry.localHeaderOffset,
  );
  if (guess < localHeaderSize) corrupt(`local header of ${entry.name} lies past the end of the file`);
  const chunk = await source.read(entry.localHeaderOffset, guess);
  if (chunk.readUInt32LE(0) !== localSignature) corrupt(`bad local header for ${entry.name}`);
  const skip = localHeaderSize + chunk.readUInt16LE(26) + chunk.readUInt16LE(28);
  const raw =
    skip + entry.compressedSize <= chunk.length
      ? chunk.subarray(skip, skip + entry.compressedSize)
      : await source.read(entry.localHeaderOffset + skip, entry.compressedSize);
  let data: Buffer;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize)
      corrupt(`${entry.name} is stored with differing sizes`);
    data = raw;
  } else {
    data = inflate(raw, entry);
  }
  if (data.length !== entry.uncompressedSize) {
    corrupt(`${entry.name} inflated to ${data.length} bytes, declared ${entry.uncompressedSize}`);
  }
  if (crc32(data) !== entry.crc32) corrupt(`${entry.name} fails its CRC-32 check`);
  return data;
}
