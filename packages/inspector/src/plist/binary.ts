import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import { type PlistDict, type PlistValue, plistDateToIso, setKey } from "./types.ts";

/**
 * Binary property lists ("bplist00"): a trailer names the offset table, which points at each
 * object; containers hold object numbers. Every offset and reference is checked, references that
 * lead back into an object being read are refused, and the number of values produced is bounded
 * (shared references could otherwise expand exponentially).
 */

interface Trailer {
  offsetSize: number;
  refSize: number;
  objectCount: number;
  topObject: number;
  offsetTableOffset: number;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `binary plist: ${message}`);
}

function readUnsigned(buf: Buffer, offset: number, size: number): number {
  if (offset < 0 || offset + size > buf.length) corrupt("field past the end");
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + (buf[offset + i] as number);
  if (!Number.isSafeInteger(value)) corrupt("field value too large");
  return value;
}

function readTrailer(buf: Buffer): Trailer {
  if (buf.length < 8 + 32 || buf.toString("latin1", 0, 6) !== "bplist") corrupt("bad header");
  const at = buf.length - 32;
  const trailer = {
    offsetSize: buf[at + 6] as number,
    refSize: buf[at + 7] as number,
    objectCount: readUnsigned(buf, at + 8, 8),
    topObject: readUnsigned(buf, at + 16, 8),
    offsetTableOffset: readUnsigned(buf, at + 24, 8),
  };
  if (trailer.offsetSize < 1 || trailer.offsetSize > 8 || trailer.refSize < 1 || trailer.refSize > 8) {
    corrupt("bad integer sizes in trailer");
  }
  if (trailer.objectCount > limits.plistMaxObjects) {
    throw new InspectError("limit_exceeded", `binary plist declares ${trailer.objectCount} objects`);
  }
  if (trailer.topObject >= trailer.objectCount) corrupt("top object out of range");
  const tableEnd = trailer.offsetTableOffset + trailer.objectCount * trailer.offsetSize;
  if (trailer.offsetTableOffset < 8 || tableEnd > at) corrupt("offset table out of range");
  return trailer;
}

class BinaryPlistReader {
  private readonly offsets: number[] = [];
  private readonly active = new Set<number>();
  private produced = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly trailer: Trailer,
  ) {
    const objectsEnd = trailer.offsetTableOffset;
    for (let i = 0; i < trailer.objectCount; i++) {
      const offset = readUnsigned(
        buf,
        trailer.offsetTableOffset + i * trailer.offsetSize,
        trailer.offsetSize,
      );
      if (offset < 8 || offset >= objectsEnd) corrupt(`object ${i} offset out of range`);
      this.offsets.push(offset);
    }
  }

  readTop(): PlistValue {
    return this.readObject(this.trailer.topObject, 0);
  }

  private readObject(ref: number, depth: number): PlistValue {
    if (depth > limits.plistMaxDepth)
      throw new InspectError("limit_exceeded", "binary plist nested too deep");
    if (++this.produced > limits.plistMaxObjects) {
      throw new InspectError("limit_exceeded", "binary plist expands to too many values");
    }
    const offset = this.offsets[ref];
    if (offset === undefined) corrupt(`reference ${ref} out of range`);
    if (this.active.has(ref)) corrupt(`reference cycle through object ${ref}`);
    this.active.add(ref);
    try {
      return this.decodeAt(offset, depth);
    } finally {
      this.active.delete(ref);
    }
  }

  private end(): number {
    return this.trailer.offsetTableOffset;
  }

  private bytes(offset: number, length: number): Buffer {
    if (offset + length > this.end()) corrupt("object runs past the object area");
    return this.buf.subarray(offset, offset + length);
  }

  /** Length from the marker's low nibble, or from the integer object that follows when it is 0xF. */
  private readLength(offset: number): { length: number; next: number } {
    const nibble = (this.buf[offset] as number) & 0x0f;
    if (nibble !== 0x0f) return { length: nibble, next: offset + 1 };
    const marker = this.buf[offset + 1];
    if (marker === undefined || marker >> 4 !== 0x1) corrupt("bad length marker");
    const size = 1 << (marker & 0x0f);
    if (size > 8) corrupt("length integer too wide");
    const length = readUnsigned(this.bytes(offset + 2, size), 0, size);
    return { length, next: offset + 2 + size };
  }

  private decodeAt(offset: number, depth: number): PlistValue {
    const marker = this.bytes(offset, 1)[0] as number;
    const kind = marker >> 4;
    const low = marker & 0x0f;
    switch (kind) {
      case 0x0:
        if (marker === 0x08) return false;
        if (marker === 0x09) return true;
        if (marker === 0x00) return null;
        return corrupt(`unknown marker 0x${marker.toString(16)}`);
      case 0x1:
        return this.readInteger(offset + 1, low);
      case 0x2: {
        if (low === 2) return this.bytes(offset + 1, 4).readFloatBE(0);
        if (low === 3) return this.bytes(offset + 1, 8).readDoubleBE(0);
        return corrupt("bad real size");
      }
      case 0x3: {
        if (marker !== 0x33) corrupt("bad date marker");
        const iso = plistDateToIso(this.bytes(offset + 1, 8).readDoubleBE(0));
        return iso ?? corrupt("date out of range");
      }
      case 0x4: {
        const { length, next } = this.readLength(offset);
        return Buffer.from(this.bytes(next, length));
      }
      case 0x5: {
        const { length, next } = this.readLength(offset);
        return this.bytes(next, length).toString("latin1");
      }
      case 0x6: {
        const { length, next } = this.readLength(offset);
        const raw = Buffer.from(this.bytes(next, length * 2));
        return raw.swap16().toString("utf16le");
      }
      case 0x7: {
        // UTF-8 string (newer writers); length counts bytes.
        const { length, next } = this.readLength(offset);
        return this.bytes(next, length).toString("utf8");
      }
      case 0x8:
        return readUnsigned(this.bytes(offset + 1, low + 1), 0, low + 1);
      case 0xa:
      case 0xc: {
        const { length, next } = this.readLength(offset);
        return this.readRefs(next, length).map((ref) => this.readObject(ref, depth + 1));
      }
      case 0xd:
        return this.readDict(offset, depth);
      default:
        return corrupt(`unknown marker 0x${marker.toString(16)}`);
    }
  }

  private readInteger(offset: number, low: number): number | bigint {
    if (low > 4) corrupt("integer too wide");
    const size = 1 << low;
    const raw = this.bytes(offset, size);
    let value: bigint;
    if (size === 16) {
      // 128-bit integers carry the value in the low 64 bits, signed.
      value = raw.readBigInt64BE(8);
    } else if (size === 8) {
      value = raw.readBigInt64BE(0);
    } else {
      return readUnsigned(raw, 0, size);
    }
    const asNumber = Number(value);
    return Number.isSafeInteger(asNumber) ? asNumber : value;
  }

  private readRefs(offset: number, count: number): number[] {
    const size = this.trailer.refSize;
    if (count > limits.plistMaxObjects) throw new InspectError("limit_exceeded", "plist container too large");
    const raw = this.bytes(offset, count * size);
    const refs: number[] = [];
    for (let i = 0; i < count; i++) refs.push(readUnsigned(raw, i * size, size));
    return refs;
  }

  private readDict(offset: number, depth: number): PlistDict {
    const { length, next } = this.readLength(offset);
    const keys = this.readRefs(next, length);
    const values = this.readRefs(next + length * this.trailer.refSize, length);
    const dict: PlistDict = {};
    keys.forEach((keyRef, i) => {
      const key = this.readObject(keyRef, depth + 1);
      if (typeof key !== "string") corrupt("dictionary key is not a string");
      setKey(dict, key, this.readObject(values[i] as number, depth + 1));
    });
    return dict;
  }
}

export function isBinaryPlist(buf: Buffer): boolean {
  return buf.length >= 8 && buf.toString("latin1", 0, 8) === "bplist00";
}

export function parseBinaryPlist(buf: Buffer): PlistValue {
  const trailer = readTrailer(buf);
  return new BinaryPlistReader(buf, trailer).readTop();
}
