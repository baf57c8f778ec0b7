import { InspectError } from "../errors.ts";
import { readStringPool, type StringPool } from "./string-pool.ts";
import { type ConfigValue, dataTypes, type ResourceTable, type ResValue, toResValue } from "./values.ts";

const chunk = { stringPool: 0x0001, table: 0x0002, package: 0x0200, type: 0x0201 } as const;
const flagSparse = 0x01;
const flagOffset16 = 0x02;
const entryComplex = 0x0001;
const entryCompact = 0x0008;
const noEntry = 0xffffffff;

function corrupt(message: string): never {
  throw new InspectError("corrupt", `resources.arsc: ${message}`);
}

/** Unpacks a two-byte language or region, which aapt packs into 15 bits when it has three letters. */
function unpackCode(b0: number, b1: number, base: number): string {
  if (b0 === 0) return "";
  if (b0 & 0x80) {
    const first = b1 & 0x1f;
    const second = ((b1 & 0xe0) >> 5) | ((b0 & 0x03) << 3);
    const third = (b0 & 0x7c) >> 2;
    return String.fromCharCode(base + first, base + second, base + third);
  }
  return String.fromCharCode(b0, b1);
}

/** ResTable_config locale as BCP 47 ("pt-BR", "sr-Latn"); "" for the default configuration. */
function readLocale(buf: Buffer, config: number, configSize: number): string {
  if (configSize < 12) return "";
  const language = unpackCode(buf[config + 8] ?? 0, buf[config + 9] ?? 0, 0x61);
  if (!language) return "";
  const region = unpackCode(buf[config + 10] ?? 0, buf[config + 11] ?? 0, 0x30);
  const script = configSize >= 40 ? buf.toString("latin1", config + 36, config + 40).replace(/\0+$/, "") : "";
  return [language, script, region].filter((part) => part.length > 0).join("-");
}

interface Located {
  locale: string;
  density: number;
  dataType: number;
  data: number;
}

interface TypeChunk {
  start: number;
  end: number;
  packageId: number;
  typeId: number;
}

/**
 * Indexes resources.arsc by type chunk; a lookup then reads just the entries of one resource id
 * across its configurations, so a large table costs one pass over chunk headers.
 * Bag (complex) entries are skipped: labels, versions and icons are always simple values.
 */
export function parseResourceTable(buf: Buffer): ResourceTable {
  const wrap = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof RangeError || error instanceof TypeError) corrupt(error.message);
      throw error;
    }
  };
  const { pool, types } = wrap(() => indexTable(buf));
  const resolveString = (index: number) => {
    if (!pool) corrupt("string value without a global string pool");
    return pool.get(index);
  };
  return {
    lookup: (id) =>
      wrap(() => {
        const packageId = id >>> 24;
        const typeId = (id >>> 16) & 0xff;
        const found: ConfigValue[] = [];
        for (const chunk of types) {
          if (chunk.packageId !== packageId || chunk.typeId !== typeId) continue;
          const located = readEntry(buf, chunk, id & 0xffff);
          if (located) {
            found.push({
              locale: located.locale,
              density: located.density,
              value: toResValue(located.dataType, located.data, resolveString) satisfies ResValue,
            });
          }
        }
        return found;
      }),
  };
}

function indexTable(buf: Buffer): { pool: StringPool | null; types: TypeChunk[] } {
  if (buf.length < 12 || buf.readUInt16LE(0) !== chunk.table) corrupt("not a resource table");
  const end = Math.min(buf.readUInt32LE(4), buf.length);
  let pool: StringPool | null = null;
  const types: TypeChunk[] = [];
  for (let at = buf.readUInt16LE(2); at + 8 <= end; ) {
    const type = buf.readUInt16LE(at);
    const size = buf.readUInt32LE(at + 4);
    if (size < 8 || at + size > end) corrupt(`chunk at ${at} has a bad size`);
    if (type === chunk.stringPool) pool = readStringPool(buf.subarray(0, at + size), at);
    else if (type === chunk.package) indexPackage(buf, at, at + size, types);
    at += size;
  }
  return { pool, types };
}

function indexPackage(buf: Buffer, start: number, end: number, types: TypeChunk[]): void {
  const headerSize = buf.readUInt16LE(start + 2);
  if (headerSize < 268 || start + headerSize > end) corrupt("bad package header");
  const packageId = buf.readUInt32LE(start + 8) & 0xff;
  for (let at = start + headerSize; at + 8 <= end; ) {
    const type = buf.readUInt16LE(at);
    const size = buf.readUInt32LE(at + 4);
    if (size < 8 || at + size > end) corrupt(`package chunk at ${at} has a bad size`);
    if (type === chunk.type) {
      if (size < 24) corrupt("type chunk too small");
      types.push({ start: at, end: at + size, packageId, typeId: buf[at + 8] ?? 0 });
    }
    at += size;
  }
}

/** Finds entry `index` of one type chunk (dense, 16-bit offsets, or sparse) and reads its simple value. */
function readEntry(buf: Buffer, type: TypeChunk, index: number): Located | null {
  const { start, end } = type;
  const headerSize = buf.readUInt16LE(start + 2);
  const flags = buf[start + 9] ?? 0;
  const entryCount = buf.readUInt32LE(start + 12);
  const entriesStart = start + buf.readUInt32LE(start + 16);
  const config = start + 20;
  const configSize = buf.readUInt32LE(config);
  if (config + configSize > start + headerSize || start + headerSize > end) corrupt("bad type chunk header");
  const offsetWidth = flags & flagSparse ? 4 : flags & flagOffset16 ? 2 : 4;
  const offsets = start + headerSize;
  if (offsets + entryCount * offsetWidth > end) corrupt("entry offsets run past the chunk");
  let offset = -1;
  if (flags & flagSparse) {
    // Sparse entries are sorted by index.
    let lo = 0;
    let hi = entryCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = buf.readUInt16LE(offsets + mid * 4);
      if (at === index) {
        offset = buf.readUInt16LE(offsets + mid * 4 + 2) * 4;
        break;
      }
      if (at < index) lo = mid + 1;
      else hi = mid - 1;
    }
  } else if (index < entryCount) {
    if (flags & flagOffset16) {
      const raw = buf.readUInt16LE(offsets + index * 2);
      if (raw !== 0xffff) offset = raw * 4;
    } else {
      const raw = buf.readUInt32LE(offsets + index * 4);
      if (raw !== noEntry) offset = raw;
    }
  }
  if (offset < 0) return null;
  const entry = entriesStart + offset;
  if (entry + 8 > end) corrupt("entry out of range");
  const entryFlags = buf.readUInt16LE(entry + 2);
  let dataType: number;
  let data: number;
  if (entryFlags & entryCompact) {
    dataType = entryFlags >> 8;
    data = buf.readUInt32LE(entry + 4);
  } else {
    if (entryFlags & entryComplex) return null;
    const valueAt = entry + buf.readUInt16LE(entry);
    if (valueAt + 8 > end) corrupt("value out of range");
    dataType = buf[valueAt + 3] ?? dataTypes.null;
    data = buf.readUInt32LE(valueAt + 4);
  }
  const locale = readLocale(buf, config, configSize);
  const density = configSize >= 16 ? buf.readUInt16LE(config + 14) : 0;
  return { locale, density, dataType, data };
}
