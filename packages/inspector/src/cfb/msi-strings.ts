import { TextDecoder } from "node:util";
import { InspectError } from "../errors.ts";

function corrupt(message: string): never {
  throw new InspectError("corrupt", `MSI string pool: ${message}`);
}

export interface MsiStringPool {
  /** Table cells refer to strings by id with this many bytes (3 when the pool has the long-refs flag). */
  refBytes: 2 | 3;
  codepage: number;
  /** Id 0 is the null string. */
  get(id: number): string | null;
}

/** Windows codepages whose WHATWG encoding label is not "windows-<n>". */
const codepageLabels: Record<number, string> = {
  0: "utf-8", // "neutral": tools writing it store ASCII, which UTF-8 reads alike
  65001: "utf-8",
  932: "shift_jis",
  936: "gbk",
  949: "euc-kr",
  950: "big5",
  20127: "us-ascii",
  28591: "iso-8859-1",
};

export function codepageDecoder(codepage: number): TextDecoder {
  try {
    return new TextDecoder(codepageLabels[codepage] ?? `windows-${codepage}`);
  } catch {
    return new TextDecoder("latin1");
  }
}

/**
 * _StringPool is a list of (length, refcount) word pairs after a codepage header; the strings
 * themselves follow one another in _StringData. A string of 64 KiB or more takes two pairs: a
 * pair with length 0, then the low and high words of the length.
 */
export function parseStringPool(pool: Buffer, data: Buffer): MsiStringPool {
  if (pool.length < 4 || pool.length % 4 !== 0) corrupt(`pool of ${pool.length} bytes`);
  const flags = pool.readUInt16LE(2);
  const codepage = pool.readUInt16LE(0) | ((flags & 0x7fff) << 16);
  const decoder = codepageDecoder(codepage);
  const count = pool.length / 4;
  const strings: string[] = [""];
  let offset = 0;
  let index = 1;
  while (index < count) {
    const shortLength = pool.readUInt16LE(index * 4);
    const refs = pool.readUInt16LE(index * 4 + 2);
    let length: number;
    if (shortLength === 0 && refs === 0) {
      strings.push("");
      index += 1;
      continue;
    }
    if (shortLength === 0) {
      if (index + 1 >= count) corrupt("long string entry cut short");
      length = pool.readUInt16LE(index * 4 + 4) + pool.readUInt16LE(index * 4 + 6) * 0x10000;
      index += 2;
    } else {
      length = shortLength;
      index += 1;
    }
    if (offset + length > data.length) corrupt("string data shorter than the pool says");
    strings.push(decoder.decode(data.subarray(offset, offset + length)));
    offset += length;
  }
  return {
    refBytes: (flags & 0x8000) !== 0 ? 3 : 2,
    codepage,
    get(id) {
      if (id === 0) return null;
      const value = strings[id];
      if (value === undefined) corrupt(`string id ${id} of ${strings.length - 1}`);
      return value;
    },
  };
}
