import { guardCorrupt } from "../apple/bundle.ts";
import { InspectError } from "../errors.ts";
import type { FormatReader } from "../inspect.ts";
import { parsePlistDict } from "../plist/index.ts";
import { buildInfoFromFileName } from "../rules.ts";
import type { ByteSource } from "../source.ts";
import type { BuildInfo } from "../types.ts";

/**
 * Disk images. A UDIF image ends in a 512-byte 'koly' trailer pointing at its data fork and an
 * XML plist (the block tables); the trailer is validated. Raw images (Apple Partition Map, HFS+,
 * ISO 9660, GPT) have none. Neither carries the app's version in a place readable without
 * decompressing the filesystem, so the version comes from the file name, as the spec says.
 */

const trailerSize = 512;
/** The block tables of a multi-gigabyte image stay within a few MB. */
export const dmgMaxPlistBytes = 16 * 1024 * 1024;

function corrupt(message: string): never {
  throw new InspectError("corrupt", `DMG: ${message}`);
}

function readU64(buf: Buffer, offset: number): number {
  const value = buf.readBigUInt64BE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) corrupt("trailer field out of range");
  return Number(value);
}

async function validateKoly(source: ByteSource, trailer: Buffer): Promise<void> {
  const version = trailer.readUInt32BE(4);
  const headerSize = trailer.readUInt32BE(8);
  if (version !== 4) corrupt(`unsupported UDIF version ${version}`);
  if (headerSize !== trailerSize) corrupt(`bad UDIF header size ${headerSize}`);
  const end = source.size - trailerSize;
  const dataOffset = readU64(trailer, 0x18);
  const dataLength = readU64(trailer, 0x20);
  if (dataOffset + dataLength > end) corrupt("data fork runs past the trailer");
  const plistOffset = readU64(trailer, 0xd8);
  const plistLength = readU64(trailer, 0xe0);
  if (plistLength === 0 || plistOffset + plistLength > end) corrupt("XML plist outside the file");
  if (plistLength > dmgMaxPlistBytes) throw new InspectError("limit_exceeded", "UDIF plist too large");
  parsePlistDict(await source.read(plistOffset, plistLength), "UDIF plist");
}

/** Signatures of the raw image kinds hdiutil and xorriso write, checked at their fixed offsets. */
async function looksLikeRawImage(source: ByteSource): Promise<boolean> {
  const probes: [number, string][] = [
    [0, "ER"], // Apple Partition Map driver descriptor
    [0, "encrcdsa"], // encrypted image
    [512, "EFI PART"], // GPT
    [1024, "H+"], // HFS+ volume header
    [1024, "HX"], // HFSX
    [32769, "CD001"], // ISO 9660
  ];
  for (const [offset, signature] of probes) {
    if (offset + signature.length > source.size) continue;
    const bytes = await source.read(offset, signature.length);
    if (bytes.toString("latin1") === signature) return true;
  }
  return false;
}

export const inspectDmg: FormatReader = (source, options, fileType) =>
  guardCorrupt(async (): Promise<BuildInfo> => {
    if (source.size < trailerSize) corrupt("file too short for a disk image");
    const trailer = await source.read(source.size - trailerSize, trailerSize);
    if (trailer.toString("latin1", 0, 4) === "koly") {
      await validateKoly(source, trailer);
    } else if (!(await looksLikeRawImage(source))) {
      corrupt("neither a UDIF trailer nor a known raw image signature");
    }
    return buildInfoFromFileName(options.fileName, 3, fileType);
  });
