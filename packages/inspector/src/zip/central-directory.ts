import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import type { ByteSource } from "../source.ts";
import type { EndRecord } from "./end-record.ts";
import { isNormalAsciiName, normalizeEntryName } from "./entry-name.ts";
import type { ZipEntry } from "./types.ts";

const headerSignature = 0x02014b50;
const headerSize = 46;
const localHeaderSize = 30;
const zip64ExtraId = 0x0001;
const max32 = 0xffffffff;

function corrupt(message: string): never {
  throw new InspectError("corrupt", message);
}

interface Zip64Needs {
  uncompressed: boolean;
  compressed: boolean;
  offset: boolean;
}

/** Replaces 0xFFFFFFFF placeholders with the 64-bit values of the ZIP64 extra field, in the order APPNOTE fixes. */
function readZip64Extra(
  extra: Buffer,
  needs: Zip64Needs,
): { uncompressed?: number; compressed?: number; offset?: number } {
  let at = 0;
  while (at + 4 <= extra.length) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    const end = at + 4 + size;
    if (end > extra.length) corrupt("extra field runs past its header");
    if (id === zip64ExtraId) {
      let p = at + 4;
      const take = (what: string): number => {
        if (p + 8 > end) corrupt(`ZIP64 extra field lacks the ${what}`);
        const value = extra.readBigUInt64LE(p);
        p += 8;
        if (value > BigInt(Number.MAX_SAFE_INTEGER)) corrupt(`ZIP64 ${what} out of range`);
        return Number(value);
      };
      return {
        uncompressed: needs.uncompressed ? take("uncompressed size") : undefined,
        compressed: needs.compressed ? take("compressed size") : undefined,
        offset: needs.offset ? take("local header offset") : undefined,
      };
    }
    at = end;
  }
  corrupt("ZIP64 sizes without a ZIP64 extra field");
}

/** Parses the whole central directory, read in one bounded request. */
export async function readCentralDirectory(source: ByteSource, end: EndRecord): Promise<ZipEntry[]> {
  if (end.entryCount > limits.zipMaxEntries) {
    throw new InspectError(
      "limit_exceeded",
      `too many zip entries (${end.entryCount} > ${limits.zipMaxEntries})`,
    );
  }
  if (end.centralDirectorySize > limits.zipMaxCentralDirectoryBytes) {
    throw new InspectError(
      "limit_exceeded",
      `central directory too large (${end.centralDirectorySize} bytes)`,
    );
  }
  if (end.entryCount * headerSize > end.centralDirectorySize)
    corrupt("central directory too small for its entry count");
  const cd =
    end.centralDirectory ?? (await source.read(end.centralDirectoryOffset, end.centralDirectorySize));
  const entries: ZipEntry[] = [];
  // Directories list thousands of entries; fields are read with plain byte arithmetic and names
  // are sliced straight out of the directory buffer (no per-entry Buffer view) on this hot path.
  const u16 = (p: number) => (cd[p] as number) | ((cd[p + 1] as number) << 8);
  const u32 = (p: number) => u16(p) + u16(p + 2) * 0x10000;
  let at = 0;
  for (let i = 0; i < end.entryCount; i++) {
    if (at + headerSize > cd.length) corrupt("central directory truncated");
    if (u32(at) !== headerSignature) corrupt(`bad central directory header at entry ${i}`);
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const crc32 = u32(at + 16);
    let compressedSize = u32(at + 20);
    let uncompressedSize = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    let localHeaderOffset = u32(at + 42);
    const nameStart = at + headerSize;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > cd.length) corrupt("central directory entry runs past the directory");
    if (uncompressedSize === max32 || compressedSize === max32 || localHeaderOffset === max32) {
      const needs = {
        uncompressed: uncompressedSize === max32,
        compressed: compressedSize === max32,
        offset: localHeaderOffset === max32,
      };
      const wide = readZip64Extra(cd.subarray(extraStart, extraStart + extraLength), needs);
      uncompressedSize = wide.uncompressed ?? uncompressedSize;
      compressedSize = wide.compressed ?? compressedSize;
      localHeaderOffset = wide.offset ?? localHeaderOffset;
    }
    if (localHeaderOffset + localHeaderSize + compressedSize > end.centralDirectoryOffset) {
      corrupt(`entry ${i} data lies outside the archive body`);
    }
    const name = isNormalAsciiName(cd, nameStart, extraStart)
      ? cd.toString("latin1", nameStart, extraStart)
      : normalizeEntryName(cd.subarray(nameStart, extraStart));
    at = next;
    if (name === null) continue;
    entries.push({
      name,
      method,
      compressedSize,
      uncompressedSize,
      crc32,
      localHeaderOffset,
      isDirectory: name.endsWith("/"),
      flags,
    });
  }
  return entries;
}
