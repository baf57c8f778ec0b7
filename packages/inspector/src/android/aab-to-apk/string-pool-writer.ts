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

function utf8Length(n: number): number[] {
  return n > 0x7f ? [0x80 | (n >> 8), n & 0xff] : [n];
}

function encodeUtf8(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  if (text.length > 0x7fff || bytes.length > 0x7fff) tooLong(text);
  return Buffer.concat([
    Buffer.from([...utf8Length(text.length), ...utf8Length(bytes.length)]),
    bytes,
    Buffer.of(0),
  ]);
}

function encodeUtf16(text: string): Buffer {
  if (text.length > 0x7fffffff) tooLong(text);
  const prefix = text.length > 0x7fff ? [0x8000 | (text.length >>> 16), text.length & 0xffff] : [text.length];
  const out = Buffer.alloc((prefix.length + text.length + 1) * 2);
  prefix.forEach((unit, i) => {
    out.writeUInt16LE(unit, i * 2);
  });
  out.write(text, prefix.length * 2, "utf16le");
  return out;
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
    const encoded = this.strings.map((text) => (this.utf8 ? encodeUtf8(text) : encodeUtf16(text)));
    const offsets = Buffer.alloc((this.strings.length + this.styles.length) * 4);
    let at = 0;
    encoded.forEach((bytes, i) => {
      offsets.writeUInt32LE(at, i * 4);
      at += bytes.length;
    });
    const stringData = Buffer.concat(encoded);
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
