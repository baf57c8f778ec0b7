import { inflateSync } from "node:zlib";
import { readChunks, readHeader, unfilterScanlines } from "../../src/apple/png.ts";

/** Decodes a non-interlaced 8-bit RGBA PNG into its pixels, for comparing images in tests. */
export function decodeRgbaPng(png: Buffer): { width: number; height: number; pixels: Buffer } {
  const chunks = readChunks(png);
  const header = readHeader(chunks);
  if (header.bitDepth !== 8 || header.colorType !== 6 || header.interlace !== 0) {
    throw new Error("test decoder handles 8-bit RGBA only");
  }
  const data = Buffer.concat(chunks.filter((chunk) => chunk.type === "IDAT").map((chunk) => chunk.data));
  const pixels = unfilterScanlines(inflateSync(data), header.width, header.height, 4);
  return { width: header.width, height: header.height, pixels };
}
