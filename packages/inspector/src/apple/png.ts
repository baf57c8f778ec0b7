import { crc32, deflateSync } from "node:zlib";
import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";

/** Small PNG helpers: chunk walking, IHDR, unfiltering and a minimal RGBA encoder. */

export const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngChunk {
  type: string;
  data: Buffer;
}

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `PNG: ${message}`);
}

export function isPng(buf: Buffer): boolean {
  return buf.length >= 8 && buf.subarray(0, 8).equals(pngSignature);
}

/** Splits a PNG into chunks (CRCs are not checked: CgBI files are read before their CRCs are fixed). */
export function readChunks(buf: Buffer): PngChunk[] {
  if (!isPng(buf)) corrupt("bad signature");
  const chunks: PngChunk[] = [];
  let offset = 8;
  while (offset + 12 <= buf.length) {
    const length = buf.readUInt32BE(offset);
    if (length > buf.length - offset - 12) corrupt("chunk runs past the end");
    const type = buf.toString("latin1", offset + 4, offset + 8);
    chunks.push({ type, data: buf.subarray(offset + 8, offset + 8 + length) });
    offset += 12 + length;
    if (type === "IEND") return chunks;
  }
  return corrupt("missing IEND");
}

export function readHeader(chunks: PngChunk[]): PngHeader {
  const ihdr = chunks.find((chunk) => chunk.type === "IHDR");
  if (!ihdr || ihdr.data.length < 13) corrupt("missing IHDR");
  const header = {
    width: ihdr.data.readUInt32BE(0),
    height: ihdr.data.readUInt32BE(4),
    bitDepth: ihdr.data[8] as number,
    colorType: ihdr.data[9] as number,
    interlace: ihdr.data[12] as number,
  };
  if (header.width === 0 || header.height === 0) corrupt("empty image");
  return header;
}

/** Width and height from the IHDR chunk, which must directly follow the signature (or a CgBI chunk). */
export function readPngSize(buf: Buffer): { width: number; height: number } | null {
  if (!isPng(buf)) return null;
  let offset = 8;
  for (let i = 0; i < 2 && offset + 8 + 13 <= buf.length; i++) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString("latin1", offset + 4, offset + 8);
    if (type === "IHDR" && length >= 13) {
      return { width: buf.readUInt32BE(offset + 8), height: buf.readUInt32BE(offset + 12) };
    }
    offset += 12 + length;
  }
  return null;
}

export function encodeChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** Bytes of raw pixel data an image of this size may decode to; bounded by limits.maxIconBytes. */
export function checkPixelBudget(width: number, height: number, bytesPerPixel: number): number {
  const size = height * (1 + width * bytesPerPixel);
  if (!Number.isSafeInteger(size) || size > limits.maxIconBytes) {
    throw new InspectError("limit_exceeded", `image of ${width}x${height} is too large`);
  }
  return size;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

function predict(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4:
      return paeth(a, b, c);
    default:
      return 0;
  }
}

/** Reverses the per-scanline filters; returns the rows without their filter bytes. */
export function unfilterScanlines(raw: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  if (raw.length < height * (stride + 1)) corrupt("image data too short");
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    if (filter > 4) corrupt(`unknown filter type ${filter}`);
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const value = raw[src + x] as number;
      const a = x >= bpp ? (out[row + x - bpp] as number) : 0;
      const b = y > 0 ? (out[prev + x] as number) : 0;
      const c = x >= bpp && y > 0 ? (out[prev + x - bpp] as number) : 0;
      out[row + x] = (value + predict(filter, a, b, c)) & 0xff;
    }
  }
  return out;
}

/**
 * Filters each row for deflate, choosing per row the filter whose output has the smallest sum of
 * absolute values (the usual heuristic): photos and gradients shrink several times over None.
 */
export function filterScanlines(pixels: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  const out = Buffer.alloc(height * (stride + 1));
  const candidate = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const prev = row - stride;
    let bestFilter = 0;
    let bestScore = Number.POSITIVE_INFINITY;
    for (let filter = 0; filter <= 4; filter++) {
      let score = 0;
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? (pixels[row + x - bpp] as number) : 0;
        const b = y > 0 ? (pixels[prev + x] as number) : 0;
        const c = x >= bpp && y > 0 ? (pixels[prev + x - bpp] as number) : 0;
        const value = ((pixels[row + x] as number) - predict(filter, a, b, c)) & 0xff;
        candidate[x] = value;
        score += value < 128 ? value : 256 - value;
      }
      if (score < bestScore) {
        bestScore = score;
        bestFilter = filter;
        candidate.copy(out, y * (stride + 1) + 1);
      }
    }
    out[y * (stride + 1)] = bestFilter;
  }
  return out;
}

/** A standard 8-bit RGBA PNG. */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const data = deflateSync(filterScanlines(rgba, width, height, 4));
  return Buffer.concat([
    pngSignature,
    encodeChunk("IHDR", ihdr),
    encodeChunk("IDAT", data),
    encodeChunk("IEND", Buffer.alloc(0)),
  ]);
}
