import { type PlistDict, parsePlistDict } from "@tarmac/inspector/apple-sign";
import { resignRefused } from "./ios-resign-input.ts";

/** What the worker needs and nobody may read back: sealed in ios_resigns until the task has run. */
export interface SealedMaterial {
  p12: string;
  password: string;
  profiles: string[];
}

/** An uploaded entitlements file: an XML or binary property list holding a dictionary. */
export function readEntitlements(bytes: Buffer): PlistDict {
  try {
    return parsePlistDict(bytes, "entitlements");
  } catch {
    throw resignRefused("The entitlements file is not a property list holding a dictionary.");
  }
}
