import { inflateSync } from "node:zlib";
import { readChunks, readHeader, unfilterScanlines } from "../../src/apple/png.ts";

/** Decodes a non-interlaced 8-bit RGB or RGBA PNG into RGBA pixels, for comparing images in tests. */
export function decodeRgbaPng(png: Buffer): { width: number; height: number; pixels: Buffer } {
  const chunks = readChunks(png);
  const header = readHeader(chunks);
  const channels = header.colorType === 6 ? 4 : header.colorType === 2 ? 3 : 0;
  if (header.bitDepth !== 8 || channels === 0 || header.interlace !== 0) {
    throw new Error("test decoder handles 8-bit RGB and RGBA only");
  }
  const data = Buffer.concat(chunks.filter((chunk) => chunk.type === "IDAT").map((chunk) => chunk.data));
  const raw = unfilterScanlines(inflateSync(data), header.width, header.height, channels);
  if (channels === 4) return { width: header.width, height: header.height, pixels: raw };
  const pixels = Buffer.alloc(header.width * header.height * 4, 0xff);
  for (let i = 0, o = 0; i < raw.length; i += 3, o += 4) raw.copy(pixels, o, i, i + 3);
  return { width: header.width, height: header.height, pixels };
}
