/**
 * Writes OLE compound files from the documented layout ([MS-CFB]) so the reader can be tested on
 * shapes the Debian tools do not produce: 4096-byte sectors, DIFAT sectors, large streams, and
 * deliberately broken chains. Entries hang off the root as a chain of right siblings.
 */
const endOfChain = 0xfffffffe;
const freeSector = 0xffffffff;
const fatMarker = 0xfffffffd;
const difatMarker = 0xfffffffc;

export interface BuiltStream {
  name: string;
  data: Buffer;
}

export interface CfbLayout {
  sectorSize: number;
  /** First sector (regular streams) or first mini sector (small streams) of each stream, by name. */
  starts: Map<string, number>;
  fatSectors: number[];
  difatSectors: number[];
  directorySectors: number[];
  miniFatSectors: number[];
  miniStreamSectors: number[];
}

export interface BuildOptions {
  version?: 3 | 4;
  /** Declare at least this many FAT sectors (forces DIFAT sectors past 109). */
  minFatSectors?: number;
}

export function sectorOffset(layout: CfbLayout, sector: number): number {
  return (sector + 1) * layout.sectorSize;
}

export function buildCompoundFile(
  streams: BuiltStream[],
  options: BuildOptions = {},
): { file: Buffer; layout: CfbLayout } {
  const version = options.version ?? 3;
  const sectorSize = version === 3 ? 512 : 4096;
  const perFat = sectorSize / 4;
  const sectors: Buffer[] = [];
  const fat: number[] = [];
  const allocate = (data: Buffer): number[] => {
    const ids: number[] = [];
    for (let offset = 0; offset < data.length; offset += sectorSize) {
      const sector = Buffer.alloc(sectorSize);
      data.copy(sector, 0, offset, Math.min(data.length, offset + sectorSize));
      ids.push(sectors.length);
      sectors.push(sector);
    }
    ids.forEach((id, index) => {
      fat[id] = ids[index + 1] ?? endOfChain;
    });
    return ids;
  };

  const starts = new Map<string, number>();
  const miniParts: Buffer[] = [];
  const miniFat: number[] = [];
  let miniCount = 0;
  for (const stream of streams) {
    if (stream.data.length === 0) {
      starts.set(stream.name, endOfChain);
    } else if (stream.data.length < 4096) {
      const count = Math.ceil(stream.data.length / 64);
      starts.set(stream.name, miniCount);
      for (let i = 0; i < count; i++) miniFat[miniCount + i] = i + 1 < count ? miniCount + i + 1 : endOfChain;
      const padded = Buffer.alloc(count * 64);
      stream.data.copy(padded);
      miniParts.push(padded);
      miniCount += count;
    } else {
      starts.set(stream.name, allocate(stream.data)[0] as number);
    }
  }
  const miniStream = Buffer.concat(miniParts);
  const miniStreamSectors = miniStream.length > 0 ? allocate(miniStream) : [];
  const miniFatBuffer = Buffer.alloc(miniFat.length * 4);
  for (const [index, value] of miniFat.entries()) miniFatBuffer.writeUInt32LE(value, index * 4);
  const miniFatSectors = miniFatBuffer.length > 0 ? allocate(miniFatBuffer) : [];

  const directory = Buffer.alloc(128 * (streams.length + 1));
  const writeEntry = (
    index: number,
    name: string,
    type: number,
    start: number,
    size: number,
    right: number,
  ) => {
    const at = index * 128;
    directory.write(name, at, "utf16le");
    directory.writeUInt16LE((name.length + 1) * 2, at + 0x40);
    directory[at + 0x42] = type;
    directory[at + 0x43] = 1;
    directory.writeUInt32LE(freeSector, at + 0x44);
    directory.writeUInt32LE(right, at + 0x48);
    directory.writeUInt32LE(index === 0 && streams.length > 0 ? 1 : freeSector, at + 0x4c);
    directory.writeUInt32LE(start, at + 0x74);
    directory.writeUInt32LE(size, at + 0x78);
  };
  writeEntry(0, "Root Entry", 5, miniStreamSectors[0] ?? endOfChain, miniStream.length, freeSector);
  streams.forEach((stream, index) => {
    const right = index + 1 < streams.length ? index + 2 : freeSector;
    writeEntry(index + 1, stream.name, 2, starts.get(stream.name) as number, stream.data.length, right);
  });
  const directorySectors = allocate(directory);

  // FAT and DIFAT sectors describe themselves too, so grow them until they cover everything.
  let fatCount = options.minFatSectors ?? 1;
  let difatCount = 0;
  for (;;) {
    const total = sectors.length + fatCount + difatCount;
    const neededFat = Math.max(fatCount, Math.ceil(total / perFat));
    const neededDifat = Math.max(0, Math.ceil((neededFat - 109) / (perFat - 1)));
    if (neededFat === fatCount && neededDifat === difatCount) break;
    fatCount = neededFat;
    difatCount = neededDifat;
  }
  const fatSectors = Array.from({ length: fatCount }, (_, i) => sectors.length + i);
  const difatSectors = Array.from({ length: difatCount }, (_, i) => sectors.length + fatCount + i);
  for (const id of fatSectors) fat[id] = fatMarker;
  for (const id of difatSectors) fat[id] = difatMarker;
  const fatBuffer = Buffer.alloc(fatCount * sectorSize, 0xff);
  for (let id = 0; id < fat.length; id++) fatBuffer.writeUInt32LE(fat[id] ?? freeSector, id * 4);
  for (let i = 0; i < fatCount; i++) sectors.push(fatBuffer.subarray(i * sectorSize, (i + 1) * sectorSize));
  for (let d = 0; d < difatCount; d++) {
    const sector = Buffer.alloc(sectorSize, 0xff);
    const listed = fatSectors.slice(109 + d * (perFat - 1), 109 + (d + 1) * (perFat - 1));
    for (const [index, id] of listed.entries()) sector.writeUInt32LE(id, index * 4);
    sector.writeUInt32LE(difatSectors[d + 1] ?? endOfChain, (perFat - 1) * 4);
    sectors.push(sector);
  }

  const header = Buffer.alloc(sectorSize);
  Buffer.from("d0cf11e0a1b11ae1", "hex").copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(version, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(version === 3 ? 9 : 12, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(version === 4 ? directorySectors.length : 0, 0x28);
  header.writeUInt32LE(fatCount, 0x2c);
  header.writeUInt32LE(directorySectors[0] as number, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(miniFatSectors[0] ?? endOfChain, 0x3c);
  header.writeUInt32LE(miniFatSectors.length, 0x40);
  header.writeUInt32LE(difatSectors[0] ?? endOfChain, 0x44);
  header.writeUInt32LE(difatCount, 0x48);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(fatSectors[i] ?? freeSector, 0x4c + i * 4);
  return {
    file: Buffer.concat([header, ...sectors]),
    layout: {
      sectorSize,
      starts,
      fatSectors,
      difatSectors,
      directorySectors,
      miniFatSectors,
      miniStreamSectors,
    },
  };
}

/** Points FAT entry `sector` at `next` (to forge loops and broken chains). */
export function setFatEntry(file: Buffer, layout: CfbLayout, sector: number, next: number): void {
  const perFat = layout.sectorSize / 4;
  const fatSector = layout.fatSectors[Math.floor(sector / perFat)] as number;
  file.writeUInt32LE(next, sectorOffset(layout, fatSector) + (sector % perFat) * 4);
}
