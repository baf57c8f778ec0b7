import { InspectError } from "../../errors.ts";

/** One styled range of a string: a tag ("b", "a;href=...") over UTF-16 positions first..last. */
export interface Span {
  tag: string;
  firstChar: number;
  lastChar: number;
}

const flagUtf8 = 0x100;
const headerSize = 28;
const spanEnd = 0xffffffff;

function tooLong(text: string): never {
  throw new InspectError(
    "limit_exceeded",
    `string of ${text.length} characters is too long for a string pool`,
  );
}

/** A length prefix: one byte up to 0x7f, else two with the high bit set (UTF-8 pools). */
function writeUtf8Length(out: Buffer, at: number, n: number): number {
  if (n > 0x7f) {
    out[at] = 0x80 | (n >> 8);
    out[at + 1] = n & 0xff;
    return at + 2;
  }
  out[at] = n;
  return at + 1;
}

/** Bytes a string takes in the pool: its length prefixes, its text and the terminator. */
function encodedLength(text: string, utf8: boolean): number {
  if (!utf8) {
    if (text.length > 0x7fffffff) tooLong(text);
    return ((text.length > 0x7fff ? 2 : 1) + text.length + 1) * 2;
  }
  const bytes = Buffer.byteLength(text, "utf8");
  if (text.length > 0x7fff || bytes > 0x7fff) tooLong(text);
  return (text.length > 0x7f ? 2 : 1) + (bytes > 0x7f ? 2 : 1) + bytes + 1;
}

/** Writes a string as the pool stores it (UTF-8: UTF-16 length, byte length, bytes, NUL; UTF-16: length, units, NUL). */
function writeEncoded(out: Buffer, at: number, text: string, utf8: boolean): number {
  if (utf8) {
    let p = writeUtf8Length(out, at, text.length);
    p = writeUtf8Length(out, p, Buffer.byteLength(text, "utf8"));
    p += out.write(text, p, "utf8");
    out[p] = 0;
    return p + 1;
  }
  let p = at;
  if (text.length > 0x7fff) {
    out.writeUInt16LE(0x8000 | (text.length >>> 16), p);
    p += 2;
  }
  out.writeUInt16LE(text.length & (text.length > 0x7fff ? 0xffff : 0x7fff), p);
  p += 2;
  p += out.write(text, p, "utf16le");
  out.writeUInt16LE(0, p);
  return p + 2;
}

/**
 * Builds a ResStringPool chunk. Styled strings take the first indexes (the style array is indexed
 * like the strings), so they are all added before any plain string is asked for; plain strings are
 * deduplicated, styled ones never (two equal texts may carry different spans).
 */
export class StringPoolWriter {
  private readonly strings: string[] = [];
  private readonly styles: Span[][] = [];
  private readonly indexOf = new Map<string, number>();
  private sealedStyles = false;

  constructor(private readonly utf8: boolean) {}

  addStyled(text: string, spans: Span[]): number {
    if (this.sealedStyles) throw new Error("styled strings must be added before plain ones");
    this.strings.push(text);
    this.styles.push(spans);
    return this.strings.length - 1;
  }

  add(text: string): number {
    this.sealStyles();
    let index = this.indexOf.get(text);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(text);
      this.indexOf.set(text, index);
    }
    return index;
  }

  /** Adds a string that is never shared (binary XML keeps attribute names mapped to resource ids apart). */
  append(text: string): number {
    if (this.styles.length > 0) throw new Error("a pool with styles takes no unshared strings");
    this.sealedStyles = true;
    this.strings.push(text);
    return this.strings.length - 1;
  }

  /** Span tags are plain strings of their own; they follow the styled block. */
  private sealStyles(): void {
    if (this.sealedStyles) return;
    this.sealedStyles = true;
    for (const spans of this.styles) for (const span of spans) this.add(span.tag);
  }

  /** Index of a string added before (for placing references after every string is known). */
  find(text: string): number {
    const index = this.indexOf.get(text);
    if (index === undefined) throw new Error(`string not in the pool: ${text}`);
    return index;
  }

  get count(): number {
    return this.strings.length;
  }

  build(): Buffer {
    this.sealStyles();
    // Sizes first, then every string written in place: a pool of 100,000 strings is one buffer.
    const offsets = Buffer.alloc((this.strings.length + this.styles.length) * 4);
    let at = 0;
    this.strings.forEach((text, i) => {
      offsets.writeUInt32LE(at, i * 4);
      at += encodedLength(text, this.utf8);
    });
    const stringData = Buffer.alloc(at);
    let written = 0;
    for (const text of this.strings) written = writeEncoded(stringData, written, text, this.utf8);
    const stringPadding = Buffer.alloc((4 - (stringData.length % 4)) % 4);
    const styleParts: Buffer[] = [];
    let styleAt = 0;
    this.styles.forEach((spans, i) => {
      offsets.writeUInt32LE(styleAt, (this.strings.length + i) * 4);
      const part = Buffer.alloc(spans.length * 12 + 4);
      spans.forEach((span, j) => {
        part.writeUInt32LE(this.find(span.tag), j * 12);
        part.writeUInt32LE(span.firstChar, j * 12 + 4);
        part.writeUInt32LE(span.lastChar, j * 12 + 8);
      });
      part.writeUInt32LE(spanEnd, spans.length * 12);
      styleParts.push(part);
      styleAt += part.length;
    });
    // The platform checks for a whole span's worth of 0xFFFFFFFF after the last style.
    if (this.styles.length > 0) styleParts.push(Buffer.alloc(8, 0xff));
    const styleData = Buffer.concat(styleParts);
    const stringsStart = headerSize + offsets.length;
    const stylesStart = this.styles.length > 0 ? stringsStart + stringData.length + stringPadding.length : 0;
    const header = Buffer.alloc(headerSize);
    const size = headerSize + offsets.length + stringData.length + stringPadding.length + styleData.length;
    header.writeUInt16LE(0x0001, 0);
    header.writeUInt16LE(headerSize, 2);
    header.writeUInt32LE(size, 4);
    header.writeUInt32LE(this.strings.length, 8);
    header.writeUInt32LE(this.styles.length, 12);
    header.writeUInt32LE(this.utf8 ? flagUtf8 : 0, 16);
    header.writeUInt32LE(this.strings.length > 0 ? stringsStart : 0, 20);
    header.writeUInt32LE(stylesStart, 24);
    return Buffer.concat([header, offsets, stringData, stringPadding, styleData]);
  }
}
