import { readPngSize } from "../android/png.ts";
import { renderSvg } from "../android/render.ts";
import { webpToIcon } from "../android/webp.ts";
import { checkPixelBudget } from "../apple/png.ts";
import type { Icon } from "../types.ts";

/** Width and height from a JPEG's start-of-frame segment, or null when none is found. */
export function readJpegSize(jpeg: Buffer): { width: number; height: number } | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 < jpeg.length) {
    if (jpeg[offset] !== 0xff) return null;
    const marker = jpeg[offset + 1] ?? 0;
    // Fill bytes and markers without a length carry no segment.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = jpeg.readUInt16BE(offset + 5);
      const width = jpeg.readUInt16BE(offset + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    const length = jpeg.readUInt16BE(offset + 2);
    if (length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

/** A PNG or JPEG as it is, or a WebP decoded to PNG, with its type for a data: address. */
async function decodable(
  bytes: Buffer,
): Promise<{ data: Buffer; type: string; width: number; height: number } | null> {
  const png = readPngSize(bytes);
  if (png) return { data: bytes, type: "image/png", ...png };
  const jpeg = readJpegSize(bytes);
  if (jpeg) return { data: bytes, type: "image/jpeg", ...jpeg };
  const webp = await webpToIcon(bytes);
  return webp ? { data: webp.png, type: "image/png", width: webp.width, height: webp.height } : null;
}

/**
 * A PNG, JPEG or WebP image as a PNG no larger than the box, its proportions kept (never
 * enlarged). For logos in mail, where a 2 MB original in every message would be wasteful and
 * WebP is not shown by every client. Null when the bytes are no such image or are too large.
 */
export async function scaledPng(bytes: Buffer, box: { width: number; height: number }): Promise<Icon | null> {
  const source = await decodable(bytes);
  if (!source) return null;
  try {
    checkPixelBudget(source.width, source.height, 4);
  } catch {
    return null;
  }
  const scale = Math.min(1, box.width / source.width, box.height / source.height);
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  // resvg decodes the raster itself, from markup written here (never the file's own SVG).
  const href = `data:${source.type};base64,${source.data.toString("base64")}`;
  return renderSvg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<image width="${width}" height="${height}" preserveAspectRatio="none" href="${href}"/></svg>`,
  );
}
