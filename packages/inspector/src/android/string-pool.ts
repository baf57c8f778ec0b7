import { InspectError } from "../errors.ts";

const flagUtf8 = 0x100;
const utf8 = new TextDecoder("utf-8");
const utf16 = new TextDecoder("utf-16le");

function corrupt(message: string): never {
  throw new InspectError("corrupt", `string pool: ${message}`);
}

export interface StringPool {
  readonly count: number;
  get(index: number): string;
}

/**
 * Reads a ResStringPool chunk lazily: only the strings asked for are decoded, which keeps a
 * 100k-string resources.arsc cheap. Every offset and length is checked against the chunk.
 */
export function readStringPool(buf: Buffer, start: number): StringPool {
  const headerSize = buf.readUInt16LE(start + 2);
  const size = buf.readUInt32LE(start + 4);
  const end = start + size;
  if (headerSize < 28 || end > buf.length || headerSize > size) corrupt("bad chunk header");
  const count = buf.readUInt32LE(start + 8);
  const flags = buf.readUInt32LE(start + 16);
  const stringsStart = buf.readUInt32LE(start + 20);
  const offsetsAt = start + headerSize;
  if (count > (size - headerSize) / 4) corrupt(`string count ${count} does not fit the chunk`);
  const dataStart = start + stringsStart;
  if (count > 0 && (stringsStart < headerSize + count * 4 || dataStart > end))
    corrupt("strings start out of range");
  const isUtf8 = (flags & flagUtf8) !== 0;
  const cache = new Map<number, string>();

  function decodeAt(index: number): string {
    let p = dataStart + buf.readUInt32LE(offsetsAt + index * 4);
    const need = (n: number) => {
      if (p + n > end) corrupt(`string ${index} runs past the chunk`);
    };
    if (isUtf8) {
      need(2);
      // UTF-16 length first (skipped), then the UTF-8 byte length; each is 1 or 2 bytes.
      p += (buf[p] ?? 0) & 0x80 ? 2 : 1;
      need(2);
      let length = buf[p] ?? 0;
      if (length & 0x80) {
        length = ((length & 0x7f) << 8) | (buf[p + 1] ?? 0);
        p += 2;
      } else p += 1;
      need(length);
      return utf8.decode(buf.subarray(p, p + length));
    }
    need(2);
    let length = buf.readUInt16LE(p);
    if (length & 0x8000) {
      need(4);
      length = ((length & 0x7fff) << 16) | buf.readUInt16LE(p + 2);
      p += 4;
    } else p += 2;
    need(length * 2);
    return utf16.decode(buf.subarray(p, p + length * 2));
  }

  return {
    count,
    get(index) {
      if (!Number.isInteger(index) || index < 0 || index >= count) corrupt(`index ${index} out of range`);
      let text = cache.get(index);
      if (text === undefined) {
        text = decodeAt(index);
        cache.set(index, text);
      }
      return text;
    },
  };
}
