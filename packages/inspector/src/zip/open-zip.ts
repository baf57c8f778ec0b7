import { InspectError } from "../errors.ts";
import type { ByteSource } from "../source.ts";
import { readCentralDirectory } from "./central-directory.ts";
import { readEndRecord } from "./end-record.ts";
import { readEntry } from "./read-entry.ts";
import type { OpenedZip, ZipEntry } from "./types.ts";

/**
 * Opens a zip archive through random access: the tail (for the end record) and the central
 * directory are the only reads; entries are read on demand.
 */
export async function openZip(source: ByteSource): Promise<OpenedZip> {
  try {
    const end = await readEndRecord(source);
    const entries = await readCentralDirectory(source, end);
    return {
      entries,
      centralDirectoryOffset: end.centralDirectoryOffset,
      find: createLookup(entries),
      read: (entry, maxBytes) => guard(() => readEntry(source, entry, maxBytes)),
    };
  } catch (error) {
    throw asInspectError(error);
  }
}

/** Lookups answered by a scan before the name index is built. */
const scannedLookups = 4;

/**
 * Exact name lookup, the first entry winning over later duplicates. A few lookups scan the list:
 * hashing every name of a directory with thousands of entries costs more than that, and most
 * readers look up only a handful. Readers that keep asking get the index.
 */
function createLookup(entries: readonly ZipEntry[]): (name: string) => ZipEntry | undefined {
  let lookups = 0;
  let byName: Map<string, ZipEntry> | undefined;
  return (name) => {
    if (byName) return byName.get(name);
    if (++lookups <= scannedLookups) return entries.find((entry) => entry.name === name);
    byName = new Map();
    for (const entry of entries) if (!byName.has(entry.name)) byName.set(entry.name, entry);
    return byName.get(name);
  };
}

async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asInspectError(error);
  }
}

/** Malformed bytes surface as RangeError/TypeError from Buffer reads; they mean a corrupt file, never a crash. */
export function asInspectError(error: unknown): InspectError {
  if (error instanceof InspectError) return error;
  if (error instanceof RangeError || error instanceof TypeError) {
    return new InspectError("corrupt", `malformed zip structure: ${error.message}`);
  }
  throw error;
}
