import { InspectError } from "../errors.ts";
import { isBinaryPlist, parseBinaryPlist } from "./binary.ts";
import { isDict, type PlistDict, type PlistValue } from "./types.ts";
import { parseXmlPlist } from "./xml.ts";

export { isDict, type PlistDict, type PlistValue, stringOf } from "./types.ts";

/** Parses a binary or XML property list; malformed input of any kind ends in InspectError. */
export function parsePlist(input: Buffer): PlistValue {
  try {
    return isBinaryPlist(input) ? parseBinaryPlist(input) : parseXmlPlist(input);
  } catch (error) {
    if (error instanceof InspectError) throw error;
    if (error instanceof RangeError || error instanceof TypeError || error instanceof SyntaxError) {
      throw new InspectError("corrupt", `malformed plist: ${error.message}`);
    }
    throw error;
  }
}

/** A plist whose top value must be a dictionary (Info.plist, PackageInfo-style documents). */
export function parsePlistDict(input: Buffer, what: string): PlistDict {
  const value = parsePlist(input);
  if (!isDict(value)) throw new InspectError("corrupt", `${what} is not a dictionary`);
  return value;
}
