import { InspectError } from "../errors.ts";
import type { ByteSource } from "../source.ts";

/** Sector-number markers of [MS-CFB] 2.1. */
export const endOfChain = 0xfffffffe;
export const freeSector = 0xffffffff;
export const noStream = 0xffffffff;

const signature = Buffer.from("d0cf11e0a1b11ae1", "hex");
const headerDifatEntries = 109;

export interface CfbHeader {
  majorVersion: 3 | 4;
  sectorSize: number;
  miniSectorSize: number;
  miniStreamCutoff: number;
  firstDirectorySector: number;
  fatSectorCount: number;
  firstMiniFatSector: number;
  miniFatSectorCount: number;
  firstDifatSector: number;
  difatSectorCount: number;
  /** The FAT sector numbers kept in the header itself (up to 109). */
  headerDifat: number[];
  /** Sectors that fit in the file after the header: every valid sector number is below this. */
  sectorCount: number;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `compound file: ${message}`);
}

/** Reads and checks the 512-byte header; the counts it declares are bounded by the file size. */
export async function readCfbHeader(source: ByteSource): Promise<CfbHeader> {
  if (source.size < 512) corrupt("shorter than its header");
  const header = await source.read(0, 512);
  if (!header.subarray(0, 8).equals(signature)) corrupt("bad signature");
  const majorVersion = header.readUInt16LE(0x1a);
  if (majorVersion !== 3 && majorVersion !== 4) corrupt(`unsupported major version ${majorVersion}`);
  if (header.readUInt16LE(0x1c) !== 0xfffe) corrupt("bad byte-order mark");
  const sectorShift = header.readUInt16LE(0x1e);
  if (sectorShift !== (majorVersion === 3 ? 9 : 12))
    corrupt(`sector shift ${sectorShift} for version ${majorVersion}`);
  const miniSectorShift = header.readUInt16LE(0x20);
  if (miniSectorShift !== 6) corrupt(`mini sector shift ${miniSectorShift}`);
  const miniStreamCutoff = header.readUInt32LE(0x38);
  if (miniStreamCutoff !== 4096) corrupt(`mini stream cutoff ${miniStreamCutoff}`);
  const sectorSize = 1 << sectorShift;
  const sectorCount = Math.ceil(Math.max(0, source.size - sectorSize) / sectorSize);
  const fatSectorCount = header.readUInt32LE(0x2c);
  const miniFatSectorCount = header.readUInt32LE(0x40);
  const difatSectorCount = header.readUInt32LE(0x48);
  for (const [label, count] of [
    ["FAT", fatSectorCount],
    ["mini FAT", miniFatSectorCount],
    ["DIFAT", difatSectorCount],
  ] as const) {
    if (count > sectorCount) corrupt(`${count} ${label} sectors in a file of ${sectorCount}`);
  }
  if (fatSectorCount === 0) corrupt("no FAT sectors");
  const headerDifat: number[] = [];
  for (let i = 0; i < Math.min(headerDifatEntries, fatSectorCount); i++) {
    headerDifat.push(header.readUInt32LE(0x4c + i * 4));
  }
  return {
    majorVersion,
    sectorSize,
    miniSectorSize: 1 << miniSectorShift,
    miniStreamCutoff,
    firstDirectorySector: header.readUInt32LE(0x30),
    fatSectorCount,
    firstMiniFatSector: header.readUInt32LE(0x3c),
    miniFatSectorCount,
    firstDifatSector: header.readUInt32LE(0x44),
    difatSectorCount,
    headerDifat,
    sectorCount,
  };
}
