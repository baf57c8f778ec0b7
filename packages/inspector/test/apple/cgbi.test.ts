import { crc32, deflateRawSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { isCgbiPng, uncrushPng } from "../../src/apple/cgbi.ts";
import { encodeChunk, pngSignature, readChunks, readHeader, unfilterScanlines } from "../../src/apple/png.ts";
import { InspectError } from "../../src/errors.ts";

// 3x2 RGBA pixels: opaque, half transparent, fully transparent.
const width = 3;
const height = 2;
const rgba = Buffer.from([
  255, 0, 0, 255, /**/ 0, 200, 100, 128, /**/ 10, 20, 30, 0, 12, 34, 56, 255, /**/ 255, 255, 255, 51, /**/ 0,
  0, 0, 255,
]);

/** Crushes RGBA pixels the way Xcode does: premultiplied BGRA, Sub/Up filters, raw deflate, CgBI chunk. */
function crush(pixels: Buffer): Buffer {
  const bgra = Buffer.alloc(pixels.length);
  for (let i = 0; i < pixels.length; i += 4) {
    const a = pixels[i + 3] as number;
    const premultiply = (c: number) => Math.round((c * a) / 255);
    bgra[i] = premultiply(pixels[i + 2] as number);
    bgra[i + 1] = premultiply(pixels[i + 1] as number);
    bgra[i + 2] = premultiply(pixels[i] as number);
    bgra[i + 3] = a;
  }
  const stride = width * 4;
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const filter = y === 0 ? 1 : 2; // Sub on the first row, Up on the second
    raw[y * (stride + 1)] = filter;
    for (let x = 0; x < stride; x++) {
      const value = bgra[y * stride + x] as number;
      const predictor =
        filter === 1
          ? x >= 4
            ? (bgra[y * stride + x - 4] as number)
            : 0
          : (bgra[(y - 1) * stride + x] as number);
      raw[y * (stride + 1) + 1 + x] = (value - predictor) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const idat = deflateRawSync(raw);
  return Buffer.concat([
    pngSignature,
    encodeChunk("CgBI", Buffer.from([0x50, 0x00, 0x20, 0x02])),
    encodeChunk("IHDR", ihdr),
    encodeChunk("IDAT", idat.subarray(0, 5)),
    encodeChunk("IDAT", idat.subarray(5)),
    encodeChunk("IEND", Buffer.alloc(0)),
  ]);
}

function checkCrcs(png: Buffer): void {
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const expected = png.readUInt32BE(offset + 8 + length);
    expect(crc32(png.subarray(offset + 4, offset + 8 + length))).toBe(expected);
    offset += 12 + length;
  }
}

describe("CgBI PNG", () => {
  it("restores a standard PNG from a crushed one", () => {
    const crushed = crush(rgba);
    expect(isCgbiPng(crushed)).toBe(true);
    const png = uncrushPng(crushed);
    expect(isCgbiPng(png)).toBe(false);
    const chunks = readChunks(png);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    checkCrcs(png);
    expect(readHeader(chunks)).toEqual({ width: 3, height: 2, bitDepth: 8, colorType: 6, interlace: 0 });
    // A zlib stream (header and Adler-32), which inflateSync checks.
    const raw = inflateSync((chunks[1] as { data: Buffer }).data);
    const pixels = unfilterScanlines(raw, width, height, 4);
    // Opaque and fully transparent pixels come back exactly (transparent ones as premultiplied zeros);
    // half-transparent ones within the rounding of premultiplication (200 -> 100 -> 199).
    expect([...pixels]).toEqual([
      255, 0, 0, 255, /**/ 0, 199, 100, 128, /**/ 0, 0, 0, 0, 12, 34, 56, 255, /**/ 255, 255, 255, 51, /**/ 0,
      0, 0, 255,
    ]);
  });

  it("leaves a standard PNG untouched", () => {
    const plain = Buffer.concat([pngSignature, encodeChunk("IEND", Buffer.alloc(0))]);
    expect(uncrushPng(plain)).toBe(plain);
  });

  it("refuses crushed data that does not inflate or is too large", () => {
    const crushed = crush(rgba);
    const broken = Buffer.from(crushed);
    const idat = broken.indexOf("IDAT");
    broken.fill(0xff, idat + 4, idat + 9);
    expect(() => uncrushPng(broken)).toThrow(InspectError);
    const huge = Buffer.from(crushed);
    const ihdr = huge.indexOf("IHDR");
    huge.writeUInt32BE(100_000, ihdr + 4);
    huge.writeUInt32BE(100_000, ihdr + 8);
    expect(() => uncrushPng(huge)).toThrow(expect.objectContaining({ reason: "limit_exceeded" }));
  });
});
