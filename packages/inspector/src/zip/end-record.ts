import { InspectError } from "../errors.ts";
import type { ByteSource } from "../source.ts";

const eocdSignature = 0x06054b50;
const locatorSignature = 0x07064b50;
const eocd64Signature = 0x06064b50;
const eocdSize = 22;
const locatorSize = 20;
const eocd64MinSize = 56;
const maxCommentLength = 0xffff;

export interface EndRecord {
  entryCount: number;
  centralDirectoryOffset: number;
  centralDirectorySize: number;
  /** Where the (ZIP64) end records start: the central directory must end at or before it. */
  endOffset: number;
  /** The central directory bytes when the tail read already covered them. */
  centralDirectory?: Buffer;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", message);
}

/** The last EOCD signature whose comment length reaches exactly the end of the file, else the last one. */
function findEocd(tail: Buffer, tailStart: number, fileSize: number): number {
  let fallback = -1;
  for (let i = tail.length - eocdSize; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== eocdSignature) continue;
    const commentLength = tail.readUInt16LE(i + 20);
    if (tailStart + i + eocdSize + commentLength === fileSize) return i;
    if (fallback < 0 && tailStart + i + eocdSize + commentLength <= fileSize) fallback = i;
  }
  return fallback;
}

function readUint64(buf: Buffer, offset: number, what: string): number {
  const value = buf.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) corrupt(`${what} out of range`);
  return Number(value);
}

/**
 * Finds the end of central directory record by scanning only the last 64 KiB + 22 bytes, then
 * follows the ZIP64 locator when present (archives over 4 GiB or 65535 entries).
 */
export async function readEndRecord(source: ByteSource): Promise<EndRecord> {
  if (source.size < eocdSize) corrupt("file too small to be a zip archive");
  const tailLength = Math.min(source.size, maxCommentLength + eocdSize);
  const tailStart = source.size - tailLength;
  const tail = await source.read(tailStart, tailLength);
  const at = findEocd(tail, tailStart, source.size);
  if (at < 0) corrupt("no end of central directory record (not a zip archive)");
  const eocdOffset = tailStart + at;
  const disk = tail.readUInt16LE(at + 4);
  const cdDisk = tail.readUInt16LE(at + 6);
  const diskEntries = tail.readUInt16LE(at + 8);
  let entryCount = tail.readUInt16LE(at + 10);
  let centralDirectorySize = tail.readUInt32LE(at + 12);
  let centralDirectoryOffset = tail.readUInt32LE(at + 16);
  let endOffset = eocdOffset;

  const locatorOffset = eocdOffset - locatorSize;
  const hasLocator =
    locatorOffset >= 0 &&
    (locatorOffset >= tailStart
      ? tail.readUInt32LE(locatorOffset - tailStart) === locatorSignature
      : (await source.read(locatorOffset, 4)).readUInt32LE(0) === locatorSignature);
  if (hasLocator) {
    const locator = await source.read(locatorOffset, locatorSize);
    const eocd64Offset = readUint64(locator, 8, "ZIP64 end record offset");
    if (locator.readUInt32LE(16) > 1) corrupt("multi-disk archives are not supported");
    if (eocd64Offset + eocd64MinSize > locatorOffset) corrupt("ZIP64 end record offset out of range");
    const record = await source.read(eocd64Offset, eocd64MinSize);
    if (record.readUInt32LE(0) !== eocd64Signature) corrupt("bad ZIP64 end record signature");
    if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0) {
      corrupt("multi-disk archives are not supported");
    }
    entryCount = readUint64(record, 32, "ZIP64 entry count");
    centralDirectorySize = readUint64(record, 40, "ZIP64 central directory size");
    centralDirectoryOffset = readUint64(record, 48, "ZIP64 central directory offset");
    endOffset = eocd64Offset;
  } else {
    if (disk !== 0 || cdDisk !== 0 || diskEntries !== entryCount)
      corrupt("multi-disk archives are not supported");
    if (
      entryCount === 0xffff ||
      centralDirectorySize === 0xffffffff ||
      centralDirectoryOffset === 0xffffffff
    ) {
      corrupt("ZIP64 values without a ZIP64 end record");
    }
  }
  if (centralDirectoryOffset + centralDirectorySize > endOffset) {
    corrupt("central directory extends past the end record");
  }
  // The central directory of most archives fits in the tail already read; keep it to save a request.
  const tailHolds = centralDirectoryOffset >= tailStart;
  const centralDirectory = tailHolds
    ? tail.subarray(
        centralDirectoryOffset - tailStart,
        centralDirectoryOffset - tailStart + centralDirectorySize,
      )
    : undefined;
  return { entryCount, centralDirectoryOffset, centralDirectorySize, endOffset, centralDirectory };
}
