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
    const byName = indexByName(entries);
    return {
      entries,
      centralDirectoryOffset: end.centralDirectoryOffset,
      find: (name) => byName.get(name),
      read: (entry, maxBytes) => guard(() => readEntry(source, entry, maxBytes)),
    };
  } catch (error) {
    throw asInspectError(error);
  }
}

/**
 * The entries by name. Two entries with one name let two readers see two different files (one
 * tool reads the first AndroidManifest.xml, the installer the last): such an archive is refused,
 * never guessed at.
 */
function indexByName(entries: readonly ZipEntry[]): Map<string, ZipEntry> {
  const byName = new Map<string, ZipEntry>();
  for (const entry of entries) {
    if (byName.has(entry.name)) throw new InspectError("corrupt", `duplicate zip entry name: ${entry.name}`);
    byName.set(entry.name, entry);
  }
  return byName;
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
