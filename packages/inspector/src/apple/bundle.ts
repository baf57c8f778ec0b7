import { InspectError } from "../errors.ts";
import { type PlistDict, parsePlistDict, stringOf } from "../plist/index.ts";
import type { ZipArchive, ZipEntry } from "../zip/types.ts";

/** Info.plist files are a few KB; anything past this is not one the inspector needs to read. */
export const maxPlistBytes = 8 * 1024 * 1024;

export async function readPlistEntry(zip: ZipArchive, entry: ZipEntry): Promise<PlistDict> {
  return parsePlistDict(await zip.read(entry, maxPlistBytes), entry.name);
}

/** The fields every Apple bundle's Info.plist names the same way. */
export function readBundleFields(info: PlistDict): {
  bundle_id: string | null;
  name: string | null;
  version: string | null;
  build_number: string | null;
} {
  return {
    bundle_id: stringOf(info.CFBundleIdentifier),
    name: stringOf(info.CFBundleDisplayName) ?? stringOf(info.CFBundleName),
    version: stringOf(info.CFBundleShortVersionString),
    build_number: stringOf(info.CFBundleVersion),
  };
}

/**
 * Runs a format reader, turning RangeError/TypeError from malformed bytes into
 * InspectError("corrupt"): a bad file must never surface as a crash.
 */
export async function guardCorrupt<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InspectError) throw error;
    if (error instanceof RangeError || error instanceof TypeError || error instanceof SyntaxError) {
      throw new InspectError("corrupt", `malformed file: ${error.message}`);
    }
    throw error;
  }
}

/** Runs an optional part (an icon) whose damage should not make the whole build unreadable. */
export async function readOptional<T>(run: () => Promise<T | null>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InspectError || error instanceof RangeError || error instanceof TypeError)
      return null;
    throw error;
  }
}
