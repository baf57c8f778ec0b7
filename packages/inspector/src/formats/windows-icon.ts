import { encodePng, isPng, readPngSize } from "../apple/png.ts";
import { InspectError } from "../errors.ts";
import type { Icon } from "../types.ts";

/** Icon images are at most 256 px by the format; anything larger in a header is a lie. */
const maxIconSide = 1024;

interface DirectoryEntry {
  width: number;
  height: number;
  bitCount: number;
  data: Buffer;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `icon: ${message}`);
}

function readDirectory(ico: Buffer): DirectoryEntry[] {
  if (ico.length < 6 || ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) corrupt("not an ICO file");
  const count = ico.readUInt16LE(4);
  const entries: DirectoryEntry[] = [];
  for (let index = 0; index < count; index++) {
    const at = 6 + index * 16;
    const size = ico.readUInt32LE(at + 8);
    const offset = ico.readUInt32LE(at + 12);
    if (offset + size > ico.length) corrupt(`image ${index} lies past the end`);
    entries.push({
      width: ico[at] || 256,
      height: ico[at + 1] || 256,
      bitCount: ico.readUInt16LE(at + 6),
      data: ico.subarray(offset, offset + size),
    });
  }
  return entries;
}

/**
 * Decodes the DIB of an ICO entry (1/4/8-bit palette, 24 or 32-bit BGR(A), rows bottom-up,
 * followed by a 1-bit AND mask where 1 means transparent) into RGBA.
 */
function decodeDib(dib: Buffer): { width: number; height: number; rgba: Buffer } {
  const headerSize = dib.readUInt32LE(0);
  const width = dib.readInt32LE(4);
  const height = dib.readInt32LE(8) / 2; // the height counts the colour rows and the mask rows
  const bitCount = dib.readUInt16LE(14);
  const compression = dib.readUInt32LE(16);
  if (
    headerSize < 40 ||
    width < 1 ||
    width > maxIconSide ||
    !Number.isInteger(height) ||
    height < 1 ||
    height > maxIconSide
  ) {
    corrupt(`bitmap of ${width}x${height}`);
  }
  if (compression !== 0 && !(compression === 3 && bitCount === 32))
    corrupt(`bitmap compression ${compression}`);
  if (![1, 4, 8, 24, 32].includes(bitCount)) corrupt(`bitmap of ${bitCount} bits per pixel`);
  const paletteSize = bitCount <= 8 ? dib.readUInt32LE(32) || 1 << bitCount : 0;
  const paletteAt = headerSize + (compression === 3 ? 12 : 0);
  const pixelsAt = paletteAt + paletteSize * 4;
  const stride = Math.ceil((width * bitCount) / 32) * 4;
  const maskAt = pixelsAt + stride * height;
  const maskStride = Math.ceil(width / 32) * 4;
  const hasMask = maskAt + maskStride * height <= dib.length;
  if (maskAt > dib.length) corrupt("bitmap pixels cut short");
  const rgba = Buffer.alloc(width * height * 4);
  let anyAlpha = false;
  for (let y = 0; y < height; y++) {
    const row = pixelsAt + (height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const out = (y * width + x) * 4;
      if (bitCount >= 24) {
        const at = row + x * (bitCount / 8);
        rgba[out] = dib[at + 2] as number;
        rgba[out + 1] = dib[at + 1] as number;
        rgba[out + 2] = dib[at] as number;
        rgba[out + 3] = bitCount === 32 ? (dib[at + 3] as number) : 255;
      } else {
        const bit = x * bitCount;
        const index =
          ((dib[row + (bit >> 3)] as number) >> (8 - bitCount - (bit & 7))) & ((1 << bitCount) - 1);
        if (index >= paletteSize) corrupt(`palette index ${index} of ${paletteSize}`);
        const color = paletteAt + index * 4;
        rgba[out] = dib[color + 2] as number;
        rgba[out + 1] = dib[color + 1] as number;
        rgba[out + 2] = dib[color] as number;
        rgba[out + 3] = 255;
      }
      if (bitCount === 32 && rgba[out + 3] !== 0) anyAlpha = true;
    }
  }
  // 32-bit images carry their own alpha; older ones (or 32-bit with an empty alpha) use the mask.
  if (hasMask && !anyAlpha) {
    for (let y = 0; y < height; y++) {
      const row = maskAt + (height - 1 - y) * maskStride;
      for (let x = 0; x < width; x++) {
        const masked = (((dib[row + (x >> 3)] as number) >> (7 - (x & 7))) & 1) === 1;
        rgba[(y * width + x) * 4 + 3] = masked ? 0 : 255;
      }
    }
  }
  return { width, height, rgba };
}

/**
 * The largest image of a Windows .ico as a PNG: PNG entries (Vista-style 256 px icons) are
 * taken as they are, bitmap entries are converted. Null for anything that is not an ICO.
 */
export function readIcoAsPng(ico: Buffer): Icon | null {
  if (ico.length < 6 || ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) return null;
  const entries = readDirectory(ico).sort(
    (a, b) => b.width * b.height - a.width * a.height || b.bitCount - a.bitCount,
  );
  const best = entries[0];
  if (!best) return null;
  if (isPng(best.data)) {
    const size = readPngSize(best.data);
    if (!size) corrupt("PNG image without a header");
    return { png: Buffer.from(best.data), ...size };
  }
  if (best.data.length < 40) corrupt("bitmap header cut short");
  const { width, height, rgba } = decodeDib(best.data);
  return { png: encodePng(width, height, rgba), width, height };
}
