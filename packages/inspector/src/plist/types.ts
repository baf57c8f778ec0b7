/** A property-list value. Integers are numbers when they fit, bigints otherwise; dates are ISO strings. */
export type PlistValue = string | number | bigint | boolean | Buffer | null | PlistValue[] | PlistDict;

export interface PlistDict {
  [key: string]: PlistValue;
}

/** Sets a key without going through an inherited setter ("__proto__" stays an ordinary key). */
export function setKey(dict: PlistDict, key: string, value: PlistValue): void {
  Object.defineProperty(dict, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isDict(value: PlistValue | undefined): value is PlistDict {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

export function stringOf(value: PlistValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

/** Seconds between 1970-01-01 and the plist epoch 2001-01-01. */
export const plistEpochSeconds = 978_307_200;

export function plistDateToIso(secondsSince2001: number): string | null {
  const ms = (secondsSince2001 + plistEpochSeconds) * 1000;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
