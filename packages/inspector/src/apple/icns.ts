import { InspectError } from "../errors.ts";
import type { Icon } from "../types.ts";
import { uncrushPng } from "./cgbi.ts";
import { encodePng, isPng, readPngSize } from "./png.ts";

/**
 * Apple icon files: an 'icns' header and typed members. Modern members hold PNG (or JPEG 2000,
 * which needs a decoder this package does not have); older ones hold run-length-encoded RGB
 * planes with a separate 8-bit mask. The largest PNG member wins; without one, the largest RLE
 * image is decoded and encoded as PNG.
 */

interface Member {
  type: string;
  data: Buffer;
}

// RLE image members, their side length and the mask member that carries their alpha.
const rleKinds: Record<string, { size: number; mask: string }> = {
  it32: { size: 128, mask: "t8mk" },
  ih32: { size: 48, mask: "h8mk" },
  il32: { size: 32, mask: "l8mk" },
  is32: { size: 16, mask: "s8mk" },
};

const maxMembers = 256;

function corrupt(message: string): never {
  throw new InspectError("corrupt", `ICNS: ${message}`);
}

export function readIcnsMembers(buf: Buffer): Member[] {
  if (buf.length < 8 || buf.toString("latin1", 0, 4) !== "icns") corrupt("bad header");
  const declared = buf.readUInt32BE(4);
  const end = Math.min(declared, buf.length);
  if (declared < 8) corrupt("bad length");
  const members: Member[] = [];
  let offset = 8;
  while (offset + 8 <= end) {
    if (members.length >= maxMembers) throw new InspectError("limit_exceeded", "ICNS has too many members");
    const type = buf.toString("latin1", offset, offset + 4);
    const length = buf.readUInt32BE(offset + 4);
    if (length < 8 || length > end - offset) corrupt(`member ${JSON.stringify(type)} overruns the file`);
    members.push({ type, data: buf.subarray(offset + 8, offset + length) });
    offset += length;
  }
  return members;
}

/** Unpacks one RLE plane: a control byte below 0x80 copies n+1 bytes, otherwise repeats one byte n-125 times. */
function unpackRle(data: Buffer, start: number, count: number): { plane: Buffer; next: number } {
  const plane = Buffer.alloc(count);
  let at = start;
  let filled = 0;
  while (filled < count) {
    if (at >= data.length) corrupt("RLE data ends early");
    const control = data[at++] as number;
    if (control < 0x80) {
      const run = control + 1;
      if (filled + run > count || at + run > data.length) corrupt("RLE literal run overflows");
      data.copy(plane, filled, at, at + run);
      at += run;
      filled += run;
    } else {
      const run = control - 125;
      if (filled + run > count || at >= data.length) corrupt("RLE repeat run overflows");
      plane.fill(data[at++] as number, filled, filled + run);
      filled += run;
    }
  }
  return { plane, next: at };
}

function decodeRle(member: Member, mask: Member | undefined, size: number): Icon {
  const count = size * size;
  // it32 data starts with four zero bytes; the other kinds start with the planes.
  let at = member.type === "it32" ? 4 : 0;
  const planes: Buffer[] = [];
  if (member.data.length === count * 3 + at) {
    // Some writers store the planes uncompressed.
    for (let c = 0; c < 3; c++) planes.push(member.data.subarray(at + c * count, at + (c + 1) * count));
  } else {
    for (let c = 0; c < 3; c++) {
      const { plane, next } = unpackRle(member.data, at, count);
      planes.push(plane);
      at = next;
    }
  }
  const alpha = mask && mask.data.length >= count ? mask.data : null;
  const rgba = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i++) {
    rgba[i * 4] = planes[0]?.[i] as number;
    rgba[i * 4 + 1] = planes[1]?.[i] as number;
    rgba[i * 4 + 2] = planes[2]?.[i] as number;
    rgba[i * 4 + 3] = alpha ? (alpha[i] as number) : 255;
  }
  return { png: encodePng(size, size, rgba), width: size, height: size };
}

/** The best icon an ICNS file holds as a standard PNG, or null when it has only JPEG 2000 members. */
export function icnsToPng(buf: Buffer): Icon | null {
  const members = readIcnsMembers(buf);
  let best: Icon | null = null;
  for (const member of members) {
    if (!isPng(member.data)) continue;
    const size = readPngSize(member.data);
    if (!size) continue;
    if (!best || size.width * size.height > best.width * best.height) {
      best = { png: member.data, ...size };
    }
  }
  if (best) return { ...best, png: Buffer.from(uncrushPng(best.png)) };
  for (const [type, kind] of Object.entries(rleKinds)) {
    const member = members.find((m) => m.type === type);
    if (!member || isPng(member.data)) continue;
    return decodeRle(
      member,
      members.find((m) => m.type === kind.mask),
      kind.size,
    );
  }
  return null;
}
