import { deflateSync, inflateRawSync } from "node:zlib";
import { InspectError } from "../errors.ts";
import {
  checkPixelBudget,
  encodeChunk,
  filterScanlines,
  isPng,
  pngSignature,
  readChunks,
  readHeader,
  unfilterScanlines,
} from "./png.ts";

/**
 * Xcode "crushes" app PNGs: a CgBI chunk before IHDR, IDAT as raw deflate (no zlib header),
 * pixels in BGRA order with premultiplied alpha. Browsers cannot show them; this restores a
 * standard PNG.
 */

export function isCgbiPng(buf: Buffer): boolean {
  return isPng(buf) && buf.length >= 16 && buf.toString("latin1", 12, 16) === "CgBI";
}

function unpremultiply(pixels: Buffer, bpp: number): void {
  for (let i = 0; i + bpp <= pixels.length; i += bpp) {
    const blue = pixels[i] as number;
    pixels[i] = pixels[i + 2] as number;
    pixels[i + 2] = blue;
    if (bpp !== 4) continue;
    const alpha = pixels[i + 3] as number;
    if (alpha === 0 || alpha === 255) continue;
    for (let c = 0; c < 3; c++) {
      pixels[i + c] = Math.min(255, Math.round(((pixels[i + c] as number) * 255) / alpha));
    }
  }
}

/** Returns a standard PNG for a CgBI one; any other PNG is returned unchanged. */
export function uncrushPng(buf: Buffer): Buffer {
  if (!isCgbiPng(buf)) return buf;
  const chunks = readChunks(buf);
  const header = readHeader(chunks);
  // Xcode writes 8-bit RGB or RGBA, never interlaced; anything else is not a crushed icon.
  if (header.bitDepth !== 8 || (header.colorType !== 6 && header.colorType !== 2) || header.interlace !== 0) {
    throw new InspectError("corrupt", "CgBI PNG with an unsupported pixel format");
  }
  const bpp = header.colorType === 6 ? 4 : 3;
  const expected = checkPixelBudget(header.width, header.height, bpp);
  const compressed = Buffer.concat(
    chunks.filter((chunk) => chunk.type === "IDAT").map((chunk) => chunk.data),
  );
  let raw: Buffer;
  try {
    raw = inflateRawSync(compressed, { maxOutputLength: expected });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE")
      throw new InspectError("limit_exceeded", "CgBI image data too large");
    throw new InspectError("corrupt", `CgBI image data does not inflate: ${(error as Error).message}`);
  }
  const pixels = unfilterScanlines(raw, header.width, header.height, bpp);
  unpremultiply(pixels, bpp);
  const idat = encodeChunk("IDAT", deflateSync(filterScanlines(pixels, header.width, header.height, bpp)));
  const parts: Buffer[] = [pngSignature];
  let wroteData = false;
  for (const chunk of chunks) {
    // iDOT indexes the old IDAT layout, which no longer exists.
    if (chunk.type === "CgBI" || chunk.type === "iDOT") continue;
    if (chunk.type === "IDAT") {
      if (!wroteData) parts.push(idat);
      wroteData = true;
      continue;
    }
    parts.push(encodeChunk(chunk.type, chunk.data));
  }
  return Buffer.concat(parts);
}
