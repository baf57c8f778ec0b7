import { InspectError } from "../errors.ts";
import type { CompoundFile } from "./compound-file.ts";
import type { CfbEntry } from "./directory.ts";
import { decodeMsiStreamName } from "./msi-names.ts";
import { type MsiStringPool, parseStringPool } from "./msi-strings.ts";

/** Catalogs and the Property table of real installers are a few KiB; each row costs an object. */
const maxTableBytes = 1024 * 1024;
const maxPoolBytes = 8 * 1024 * 1024;
const maxStringDataBytes = 32 * 1024 * 1024;

// Column type bits of the MSI database format.
const typeString = 0x0800;
const typeValid = 0x0100;
const typeNullable = 0x1000;

export type MsiCell = string | number | null;

export interface MsiColumn {
  name: string;
  type: number;
}

export interface MsiDatabase {
  /** Streams that are not tables, by decoded name ("\u0005DigitalSignature", "Icon.app.ico"). */
  readonly streams: ReadonlyMap<string, CfbEntry>;
  readonly tableNames: readonly string[];
  /** Rows as column-name -> value maps, or null when the database has no such table. */
  readTable(name: string): Promise<Record<string, MsiCell>[] | null>;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `MSI database: ${message}`);
}

function isBinaryColumn(type: number): boolean {
  return (type & ~typeNullable) === (typeString | typeValid);
}

function columnWidth(type: number, refBytes: number): number {
  if (isBinaryColumn(type)) return 2;
  if (type & typeString) return refBytes;
  return (type & 0xff) <= 2 ? 2 : 4;
}

/**
 * Tables are stored column after column; each cell is a string id (2 or 3 bytes) or an integer
 * whose top bit is flipped so that 0 means null.
 */
function readColumns(data: Buffer, columns: MsiColumn[], pool: MsiStringPool): Record<string, MsiCell>[] {
  const widths = columns.map((column) => columnWidth(column.type, pool.refBytes));
  const rowBytes = widths.reduce((sum, width) => sum + width, 0);
  if (rowBytes === 0 || data.length % rowBytes !== 0)
    corrupt(`table of ${data.length} bytes, rows of ${rowBytes}`);
  const rowCount = data.length / rowBytes;
  const rows: Record<string, MsiCell>[] = Array.from({ length: rowCount }, () => Object.create(null));
  let base = 0;
  columns.forEach((column, index) => {
    const width = widths[index] as number;
    const isString = (column.type & typeString) !== 0 && !isBinaryColumn(column.type);
    for (let row = 0; row < rowCount; row++) {
      const at = base + row * width;
      const raw =
        width === 2 ? data.readUInt16LE(at) : width === 3 ? data.readUIntLE(at, 3) : data.readUInt32LE(at);
      let value: MsiCell;
      if (isString) value = pool.get(raw);
      else if (raw === 0) value = null;
      else value = width === 2 ? raw - 0x8000 : raw - 0x80000000;
      (rows[row] as Record<string, MsiCell>)[column.name] = value;
    }
    base += width * rowCount;
  });
  return rows;
}

const tablesSchema: MsiColumn[] = [{ name: "Name", type: typeString | typeValid | 0xff }];
const columnsSchema: MsiColumn[] = [
  { name: "Table", type: typeString | typeValid | 64 },
  { name: "Number", type: typeValid | 2 },
  { name: "Name", type: typeString | typeValid | 64 },
  { name: "Type", type: typeValid | 2 },
];

/** Opens the database layer of an MSI: the string pool plus the _Tables and _Columns catalogs. */
export async function openMsiDatabase(file: CompoundFile): Promise<MsiDatabase> {
  const tables = new Map<string, CfbEntry>();
  const streams = new Map<string, CfbEntry>();
  for (const entry of file.members()) {
    if (entry.type !== "stream") continue;
    const decoded = decodeMsiStreamName(entry.name);
    (decoded.isTable ? tables : streams).set(decoded.name, entry);
  }
  const poolEntry = tables.get("_StringPool");
  const dataEntry = tables.get("_StringData");
  const catalogEntry = tables.get("_Columns");
  if (!poolEntry || !dataEntry || !catalogEntry) {
    throw new InspectError("missing_manifest", "not an MSI database: string pool or column catalog missing");
  }
  const pool = parseStringPool(
    await file.read(poolEntry, maxPoolBytes),
    await file.read(dataEntry, maxStringDataBytes),
  );
  const catalog = readColumns(await file.read(catalogEntry, maxTableBytes), columnsSchema, pool);
  const tablesEntry = tables.get("_Tables");
  const tableNames = tablesEntry
    ? readColumns(await file.read(tablesEntry, maxTableBytes), tablesSchema, pool).map((row) =>
        String(row.Name),
      )
    : [];

  async function readTable(name: string): Promise<Record<string, MsiCell>[] | null> {
    const entry = tables.get(name);
    const columns = catalog
      .filter((row) => row.Table === name)
      .sort((a, b) => Number(a.Number) - Number(b.Number))
      .map((row) => ({ name: String(row.Name), type: Number(row.Type) }));
    if (columns.length === 0) return null;
    // A table with no rows has no stream at all.
    if (!entry) return [];
    return readColumns(await file.read(entry, maxTableBytes), columns, pool);
  }

  return { streams, tableNames, readTable };
}
