import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import type { ByteSource } from "../source.ts";
import { type CfbEntry, listMembers, parseDirectory } from "./directory.ts";
import { ChainCursor, FatTable, sectorOffset } from "./fat.ts";
import { type CfbHeader, readCfbHeader } from "./header.ts";

/** Real installers hold a few hundred entries; this many is already a hostile directory. */
export const cfbMaxDirectoryEntries = 65_536;

export interface CompoundFile {
  readonly header: CfbHeader;
  readonly root: CfbEntry;
  /** Streams and storages directly inside a storage (the root by default). */
  members(storage?: CfbEntry): CfbEntry[];
  /** A member by exact name. */
  find(name: string, storage?: CfbEntry): CfbEntry | undefined;
  /** A stream's bytes; InspectError("limit_exceeded") when it declares more than maxBytes. */
  read(entry: CfbEntry, maxBytes?: number): Promise<Buffer>;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `compound file: ${message}`);
}

interface Run {
  offset: number;
  length: number;
}

/** Merges adjacent byte ranges so contiguous sectors cost one read. */
function addRun(runs: Run[], offset: number, length: number): void {
  const last = runs.at(-1);
  if (last && last.offset + last.length === offset) last.length += length;
  else runs.push({ offset, length });
}

/** Sequential on purpose: a fragmented stream must not open thousands of reads at once. */
async function readRuns(source: ByteSource, runs: Run[], size: number): Promise<Buffer> {
  const data = Buffer.alloc(size);
  let at = 0;
  for (const run of runs) {
    (await source.read(run.offset, run.length)).copy(data, at);
    at += run.length;
  }
  return data;
}

class CompoundFileReader implements CompoundFile {
  private miniStream: ChainCursor | undefined;
  private miniFat: ChainCursor | undefined;
  private readonly miniFatCache = new Map<number, Buffer>();

  constructor(
    private readonly source: ByteSource,
    readonly header: CfbHeader,
    private readonly fat: FatTable,
    private readonly entries: (CfbEntry | undefined)[],
    readonly root: CfbEntry,
  ) {}

  members(storage: CfbEntry = this.root): CfbEntry[] {
    return listMembers(this.entries, storage);
  }

  find(name: string, storage: CfbEntry = this.root): CfbEntry | undefined {
    return this.members(storage).find((entry) => entry.name === name);
  }

  async read(entry: CfbEntry, maxBytes: number = limits.maxEntryBytes): Promise<Buffer> {
    if (entry.type !== "stream") corrupt(`${entry.type} entry ${entry.id} is not a stream`);
    if (entry.size > maxBytes) {
      throw new InspectError("limit_exceeded", `stream of ${entry.size} bytes is over ${maxBytes}`);
    }
    if (entry.size === 0) return Buffer.alloc(0);
    if (entry.size < this.header.miniStreamCutoff) return this.readMini(entry);
    return this.readRegular(entry.startSector, entry.size);
  }

  private async readRegular(start: number, size: number): Promise<Buffer> {
    if (size > this.source.size) corrupt(`stream of ${size} bytes in a file of ${this.source.size}`);
    const { sectorSize } = this.header;
    const chain = new ChainCursor((s) => this.fat.next(s), start, this.header.sectorCount, "stream");
    const runs: Run[] = [];
    for (let index = 0, left = size; left > 0; index++, left -= sectorSize) {
      await chain.reach(index);
      addRun(runs, sectorOffset(this.header, chain.sectors[index] as number), Math.min(sectorSize, left));
    }
    return readRuns(this.source, runs, size);
  }

  private async nextMiniSector(miniSector: number): Promise<number> {
    const perSector = this.header.sectorSize / 4;
    const index = Math.floor(miniSector / perSector);
    let table = this.miniFatCache.get(index);
    if (!table) {
      if (index >= this.header.miniFatSectorCount) corrupt(`mini sector ${miniSector} beyond the mini FAT`);
      this.miniFat ??= new ChainCursor(
        (s) => this.fat.next(s),
        this.header.firstMiniFatSector,
        this.header.sectorCount,
        "mini FAT",
      );
      await this.miniFat.reach(index);
      const sector = this.miniFat.sectors[index] as number;
      table = await this.source.read(sectorOffset(this.header, sector), this.header.sectorSize);
      this.miniFatCache.set(index, table);
    }
    return table.readUInt32LE((miniSector % perSector) * 4);
  }

  /** Small streams live in 64-byte sectors inside the mini stream, itself the root entry's chain. */
  private async readMini(entry: CfbEntry): Promise<Buffer> {
    const { sectorSize, miniSectorSize } = this.header;
    if (this.root.size > this.source.size) corrupt("mini stream larger than the file");
    const miniSectorCount = Math.ceil(this.root.size / miniSectorSize);
    this.miniStream ??= new ChainCursor(
      (s) => this.fat.next(s),
      this.root.startSector,
      this.header.sectorCount,
      "mini stream",
    );
    const chain = new ChainCursor((s) => this.nextMiniSector(s), entry.startSector, miniSectorCount, "mini");
    const runs: Run[] = [];
    for (let index = 0, left = entry.size; left > 0; index++, left -= miniSectorSize) {
      await chain.reach(index);
      const byteInMiniStream = (chain.sectors[index] as number) * miniSectorSize;
      const hostIndex = Math.floor(byteInMiniStream / sectorSize);
      await this.miniStream.reach(hostIndex);
      const host = this.miniStream.sectors[hostIndex] as number;
      addRun(
        runs,
        sectorOffset(this.header, host) + (byteInMiniStream % sectorSize),
        Math.min(miniSectorSize, left),
      );
    }
    return readRuns(this.source, runs, entry.size);
  }
}

/**
 * Opens an OLE compound file (MSI, old Office) reading the header, the DIFAT and the directory;
 * FAT sectors and stream data are read later, only as far as the requested streams need.
 */
export async function openCompoundFile(source: ByteSource): Promise<CompoundFile> {
  const header = await readCfbHeader(source);
  const fat = await FatTable.open(source, header);
  const perSector = header.sectorSize / 128;
  const maxSectors = Math.ceil(cfbMaxDirectoryEntries / perSector);
  const chain = new ChainCursor(
    (s) => fat.next(s),
    header.firstDirectorySector,
    header.sectorCount,
    "directory",
  );
  const runs: Run[] = [];
  for (let index = 0; index === 0 || !chain.ended; index++) {
    if (index >= maxSectors) {
      throw new InspectError("limit_exceeded", `directory holds more than ${cfbMaxDirectoryEntries} entries`);
    }
    await chain.reach(index);
    addRun(runs, sectorOffset(header, chain.sectors[index] as number), header.sectorSize);
  }
  const data = await readRuns(source, runs, chain.sectors.length * header.sectorSize);
  const entries = parseDirectory(data, header.majorVersion);
  return new CompoundFileReader(source, header, fat, entries, entries[0] as CfbEntry);
}
