import { InspectError } from "../errors.ts";

/**
 * A bounded reader for DER (and the BER subset that signing tools emit: indefinite lengths and
 * constructed OCTET STRINGs). Every length is checked against the enclosing element before use,
 * so a hostile length can never make the reader look outside the buffer it was given.
 */

/** Nesting deeper than this is not found in certificates or CMS and is refused. */
export const derMaxDepth = 32;

export interface DerNode {
  /** The identifier octet as written (class, constructed bit and tag number for tags below 31). */
  tag: number;
  tagClass: number; // 0 universal, 1 application, 2 context, 3 private
  constructed: boolean;
  tagNumber: number;
  start: number;
  contentStart: number;
  /** End of the content; for an indefinite length this is where the end-of-contents octets begin. */
  contentEnd: number;
  /** End of the whole element, including any end-of-contents octets. */
  end: number;
}

export const tags = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  sequence: 0x30,
  set: 0x31,
} as const;

function corrupt(message: string): never {
  throw new InspectError("corrupt", `DER: ${message}`);
}

/** Reads one element starting at `offset`; it must end at or before `limit`. */
export function readNode(buf: Buffer, offset = 0, limit = buf.length, depth = 0): DerNode {
  if (depth > derMaxDepth) throw new InspectError("limit_exceeded", "DER: nesting too deep");
  if (limit > buf.length) limit = buf.length;
  if (offset < 0 || offset + 2 > limit) corrupt("element header past the end");
  const start = offset;
  const tag = buf[offset++] as number;
  const tagClass = tag >> 6;
  const constructed = (tag & 0x20) !== 0;
  let tagNumber = tag & 0x1f;
  if (tagNumber === 0x1f) {
    tagNumber = 0;
    for (let i = 0; ; i++) {
      if (i >= 4 || offset >= limit) corrupt("tag number too long");
      const b = buf[offset++] as number;
      tagNumber = tagNumber * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
  }
  if (offset >= limit) corrupt("length past the end");
  const first = buf[offset++] as number;
  if (first === 0x80) {
    if (!constructed) corrupt("indefinite length on a primitive element");
    const contentStart = offset;
    let cursor = offset;
    for (;;) {
      if (cursor + 2 > limit) corrupt("missing end-of-contents");
      if (buf[cursor] === 0 && buf[cursor + 1] === 0) break;
      cursor = readNode(buf, cursor, limit, depth + 1).end;
    }
    return {
      tag,
      tagClass,
      constructed,
      tagNumber,
      start,
      contentStart,
      contentEnd: cursor,
      end: cursor + 2,
    };
  }
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 6) corrupt("length field too long");
    if (offset + count > limit) corrupt("length past the end");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (buf[offset++] as number);
  }
  if (length > limit - offset) corrupt(`element of ${length} bytes overruns its container`);
  return {
    tag,
    tagClass,
    constructed,
    tagNumber,
    start,
    contentStart: offset,
    contentEnd: offset + length,
    end: offset + length,
  };
}

/** The direct children of a constructed element. */
export function childrenOf(buf: Buffer, node: DerNode, depth = 0): DerNode[] {
  if (!node.constructed) corrupt("expected a constructed element");
  const out: DerNode[] = [];
  let cursor = node.contentStart;
  while (cursor < node.contentEnd) {
    const child = readNode(buf, cursor, node.contentEnd, depth + 1);
    out.push(child);
    cursor = child.end;
  }
  return out;
}

export function expectTag(node: DerNode | undefined, tag: number, what: string): DerNode {
  if (!node || node.tag !== tag) corrupt(`expected ${what}`);
  return node;
}

export function contentOf(buf: Buffer, node: DerNode): Buffer {
  return buf.subarray(node.contentStart, node.contentEnd);
}

/** The element's full encoding (identifier, length and content). */
export function rawOf(buf: Buffer, node: DerNode): Buffer {
  return buf.subarray(node.start, node.end);
}

export function readOid(buf: Buffer, node: DerNode): string {
  if (node.tag !== tags.oid || node.contentEnd === node.contentStart)
    corrupt("expected an OBJECT IDENTIFIER");
  const bytes = contentOf(buf, node);
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 128) corrupt("OID arc too large");
    if ((b & 0x80) === 0) {
      if (parts.length === 0) {
        const top = value < 80 ? Math.floor(value / 40) : 2;
        parts.push(top, value - top * 40);
      } else {
        parts.push(value);
      }
      value = 0;
    }
  }
  return parts.join(".");
}

/**
 * The bytes of an OCTET STRING, joining the pieces of a constructed (BER) one. `maxBytes` bounds
 * the joined size so a deeply chunked string cannot grow without limit.
 */
export function readOctetString(buf: Buffer, node: DerNode, maxBytes = buf.length, depth = 0): Buffer {
  if (node.tagClass === 0 && node.tagNumber !== 4) corrupt("expected an OCTET STRING");
  if (!node.constructed) return contentOf(buf, node);
  const pieces: Buffer[] = [];
  let total = 0;
  for (const child of childrenOf(buf, node, depth)) {
    const piece = readOctetString(buf, child, maxBytes - total, depth + 1);
    total += piece.length;
    if (total > maxBytes) corrupt("OCTET STRING too long");
    pieces.push(piece);
  }
  return Buffer.concat(pieces);
}
