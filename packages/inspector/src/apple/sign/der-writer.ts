/** Minimal DER encoding: what a code signature's CMS wrapper and DER entitlements need. */

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function derNode(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content]);
}

export const der = {
  sequence: (...items: Buffer[]) => derNode(0x30, Buffer.concat(items)),
  set: (...items: Buffer[]) => derNode(0x31, Buffer.concat(items)),
  /** DER orders SET OF elements by their encodings. */
  setOf: (items: Buffer[]) => derNode(0x31, Buffer.concat([...items].sort(Buffer.compare))),
  octetString: (bytes: Buffer) => derNode(0x04, bytes),
  utf8String: (text: string) => derNode(0x0c, Buffer.from(text, "utf8")),
  boolean: (value: boolean) => derNode(0x01, Buffer.from([value ? 0xff : 0x00])),
  null: () => Buffer.from([0x05, 0x00]),
  /** Explicit or constructed context tag [n] (n < 31). */
  context: (n: number, content: Buffer) => derNode(0xa0 | n, content),
  integer(value: number | bigint): Buffer {
    let big = BigInt(value);
    const bytes: number[] = [];
    const negative = big < 0n;
    do {
      bytes.unshift(Number(big & 0xffn));
      big >>= 8n;
    } while (negative ? big !== -1n : big !== 0n);
    // Two's complement: a leading bit that disagrees with the sign needs one more byte.
    const top = bytes[0] as number;
    if (!negative && top & 0x80) bytes.unshift(0);
    if (negative && !(top & 0x80)) bytes.unshift(0xff);
    return derNode(0x02, Buffer.from(bytes));
  },
  oid(dotted: string): Buffer {
    const parts = dotted.split(".").map((part) => BigInt(part));
    const [first = 0n, second = 0n, ...rest] = parts;
    const bytes: number[] = [];
    for (const part of [first * 40n + second, ...rest]) {
      const chunk: number[] = [];
      let value = part;
      do {
        chunk.unshift(Number(value & 0x7fn) | (chunk.length > 0 ? 0x80 : 0));
        value >>= 7n;
      } while (value > 0n);
      bytes.push(...chunk);
    }
    return derNode(0x06, Buffer.from(bytes));
  },
  /** UTCTime for 1950-2049, GeneralizedTime after (RFC 5280's rule, which CMS signingTime follows). */
  time(date: Date): Buffer {
    const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const year = date.getUTCFullYear();
    if (year >= 1950 && year < 2050) return derNode(0x17, Buffer.from(`${iso.slice(2)}Z`, "ascii"));
    return derNode(0x18, Buffer.from(`${iso}Z`, "ascii"));
  },
};
