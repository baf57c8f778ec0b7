import { InspectError } from "../errors.ts";
import type { ByteSource } from "../source.ts";
import { type CfbHeader, endOfChain } from "./header.ts";

function corrupt(message: string): never {
  throw new InspectError("corrupt", `compound file: ${message}`);
}

/** File offset of a regular sector: sector 0 follows the header, which fills one whole sector. */
export function sectorOffset(header: CfbHeader, sector: number): number {
  return (sector + 1) * header.sectorSize;
}

/**
 * The file allocation table, read one sector at a time as chains reach it, so a lookup in a
 * large file costs one sector read rather than the whole table.
 */
export class FatTable {
  private readonly cache = new Map<number, Buffer>();
  private readonly perSector: number;

  private constructor(
    private readonly source: ByteSource,
    private readonly header: CfbHeader,
    private readonly fatSectors: number[],
  ) {
    this.perSector = header.sectorSize / 4;
  }

  /** Collects the FAT sector numbers from the header and the DIFAT chain, which loops are refused on. */
  static async open(source: ByteSource, header: CfbHeader): Promise<FatTable> {
    const fatSectors = [...header.headerDifat];
    const perDifat = header.sectorSize / 4 - 1;
    const visited = new Set<number>();
    let next = header.firstDifatSector;
    while (fatSectors.length < header.fatSectorCount) {
      if (next >= header.sectorCount) corrupt(`DIFAT chain ends after ${fatSectors.length} FAT sectors`);
      if (visited.has(next)) corrupt("DIFAT chain loops");
      if (visited.size >= header.difatSectorCount) corrupt("DIFAT chain longer than declared");
      visited.add(next);
      const sector = await source.read(sectorOffset(header, next), header.sectorSize);
      for (let i = 0; i < perDifat && fatSectors.length < header.fatSectorCount; i++) {
        fatSectors.push(sector.readUInt32LE(i * 4));
      }
      next = sector.readUInt32LE(perDifat * 4);
    }
    for (const sector of fatSectors) {
      if (sector >= header.sectorCount) corrupt(`FAT sector ${sector} outside the file`);
    }
    return new FatTable(source, header, fatSectors);
  }

  async next(sector: number): Promise<number> {
    const index = Math.floor(sector / this.perSector);
    const location = this.fatSectors[index];
    if (location === undefined) corrupt(`sector ${sector} beyond the FAT`);
    let table = this.cache.get(index);
    if (!table) {
      table = await this.source.read(sectorOffset(this.header, location), this.header.sectorSize);
      this.cache.set(index, table);
    }
    return table.readUInt32LE((sector % this.perSector) * 4);
  }
}

/**
 * Walks one chain step by step, only as far as a caller needs. Every sector must be a real
 * sector of the file and appear once: a loop or an early end is a corrupt file.
 */
export class ChainCursor {
  readonly sectors: number[] = [];
  private readonly visited = new Set<number>();
  private pending: number;

  constructor(
    private readonly nextOf: (sector: number) => Promise<number>,
    start: number,
    private readonly sectorLimit: number,
    private readonly label: string,
  ) {
    this.pending = start;
  }

  get ended(): boolean {
    return this.pending === endOfChain;
  }

  /** Makes sectors[index] available. */
  async reach(index: number): Promise<void> {
    while (this.sectors.length <= index) {
      const sector = this.pending;
      if (sector === endOfChain) corrupt(`${this.label} chain ends after ${this.sectors.length} sectors`);
      if (sector >= this.sectorLimit) corrupt(`${this.label} chain points at sector ${sector}`);
      if (this.visited.has(sector)) corrupt(`${this.label} chain loops at sector ${sector}`);
      this.visited.add(sector);
      this.sectors.push(sector);
      this.pending = await this.nextOf(sector);
    }
  }
}
