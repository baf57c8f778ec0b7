import { InspectError } from "../errors.ts";
import type { Icon } from "../types.ts";

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk, or null when the bytes are not a standard PNG. */
export function readPngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || !png.subarray(0, 8).equals(signature)) return null;
  if (png.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export function toIcon(png: Buffer): Icon {
  const size = readPngSize(png);
  if (!size) throw new InspectError("corrupt", "icon is not a PNG");
  return { png, ...size };
}
