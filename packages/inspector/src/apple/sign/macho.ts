/**
 * Mach-O layout as code signing sees it: thin 32/64-bit images and fat (universal) containers,
 * the __TEXT and __LINKEDIT segments and the LC_CODE_SIGNATURE command that points at the
 * signature, which always sits at the end of __LINKEDIT.
 */
export class MachOError extends Error {}

const fatMagic = 0xcafebabe;
const magic64 = 0xfeedfacf;
const magic32 = 0xfeedface;
const lcSegment = 0x1;
const lcSegment64 = 0x19;
const lcCodeSignature = 0x1d;
const lcEncryptionInfo = 0x21;
const lcEncryptionInfo64 = 0x2c;
export const mhExecute = 2;
const cpuTypeArm64 = 0x0100000c;

export interface FatSlice {
  cputype: number;
  cpusubtype: number;
  align: number;
  data: Buffer;
}

/** The slices of a fat file, or null when the bytes are not one. */
export function readFatSlices(file: Buffer): FatSlice[] | null {
  if (file.length < 8 || file.readUInt32BE(0) !== fatMagic) return null;
  const count = file.readUInt32BE(4);
  // Java class files share the magic; they have a version number (> 30) here instead.
  if (count === 0 || count > 30) return null;
  const slices: FatSlice[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = 8 + index * 20;
    if (at + 20 > file.length) throw new MachOError("fat header is cut short");
    const offset = file.readUInt32BE(at + 8);
    const size = file.readUInt32BE(at + 12);
    if (offset + size > file.length) throw new MachOError("fat slice lies past the end of the file");
    slices.push({
      cputype: file.readUInt32BE(at),
      cpusubtype: file.readUInt32BE(at + 4),
      align: file.readUInt32BE(at + 16),
      data: file.subarray(offset, offset + size),
    });
  }
  return slices;
}

/** Lays slices out again (each at its alignment), as lipo does. */
export function writeFat(slices: FatSlice[]): Buffer {
  const header = Buffer.alloc(8 + slices.length * 20);
  header.writeUInt32BE(fatMagic, 0);
  header.writeUInt32BE(slices.length, 4);
  const parts: Buffer[] = [header];
  let offset = header.length;
  slices.forEach((slice, index) => {
    const alignment = 2 ** slice.align;
    const start = Math.ceil(offset / alignment) * alignment;
    parts.push(Buffer.alloc(start - offset), slice.data);
    const at = 8 + index * 20;
    header.writeUInt32BE(slice.cputype >>> 0, at);
    header.writeUInt32BE(slice.cpusubtype >>> 0, at + 4);
    header.writeUInt32BE(start, at + 8);
    header.writeUInt32BE(slice.data.length, at + 12);
    header.writeUInt32BE(slice.align, at + 16);
    offset = start + slice.data.length;
  });
  return Buffer.concat(parts);
}

export function isMachO(head: Buffer): boolean {
  if (head.length < 4) return false;
  const le = head.readUInt32LE(0);
  if (le === magic64 || le === magic32) return true;
  return (
    head.readUInt32BE(0) === fatMagic &&
    head.length >= 8 &&
    head.readUInt32BE(4) > 0 &&
    head.readUInt32BE(4) <= 30
  );
}

interface Segment {
  /** Offset of the load command in the image. */
  commandOffset: number;
  fileoff: number;
  filesize: number;
}

export interface ThinImage {
  is64: boolean;
  cputype: number;
  filetype: number;
  text: Segment;
  linkedit: Segment;
  /** The LC_CODE_SIGNATURE command's offset, or null when the image has none yet. */
  signatureCommand: number | null;
  /** Where the code ends and the signature begins (existing) or will begin (new). */
  codeLimit: number;
  /** Free bytes between the load commands and the first section. */
  headerSpace: number;
  headerSize: number;
  sizeofcmds: number;
}

function readSegment(image: Buffer, at: number, is64: boolean): Segment {
  return is64
    ? {
        commandOffset: at,
        fileoff: Number(image.readBigUInt64LE(at + 40)),
        filesize: Number(image.readBigUInt64LE(at + 48)),
      }
    : { commandOffset: at, fileoff: image.readUInt32LE(at + 32), filesize: image.readUInt32LE(at + 36) };
}

export function readThinImage(image: Buffer): ThinImage {
  if (image.length < 28) throw new MachOError("Mach-O header is cut short");
  const magic = image.readUInt32LE(0);
  if (magic !== magic64 && magic !== magic32) throw new MachOError("not a little-endian Mach-O image");
  const is64 = magic === magic64;
  const headerSize = is64 ? 32 : 28;
  const ncmds = image.readUInt32LE(16);
  const sizeofcmds = image.readUInt32LE(20);
  if (headerSize + sizeofcmds > image.length)
    throw new MachOError("load commands lie past the end of the image");
  let text: Segment | null = null;
  let linkedit: Segment | null = null;
  let signatureCommand: number | null = null;
  let firstSection = image.length;
  let at = headerSize;
  for (let index = 0; index < ncmds; index += 1) {
    const cmd = image.readUInt32LE(at);
    const cmdsize = image.readUInt32LE(at + 4);
    if (cmdsize < 8 || at + cmdsize > headerSize + sizeofcmds)
      throw new MachOError("a load command overruns the others");
    if (cmd === lcSegment64 || cmd === lcSegment) {
      const name = image.toString("latin1", at + 8, at + 24).replace(/\0+$/, "");
      const segment = readSegment(image, at, cmd === lcSegment64);
      if (name === "__TEXT") text = segment;
      if (name === "__LINKEDIT") linkedit = segment;
      const sectionSize = cmd === lcSegment64 ? 80 : 68;
      const nsects = image.readUInt32LE(at + (cmd === lcSegment64 ? 64 : 48));
      for (let s = 0; s < nsects; s += 1) {
        const section = at + (cmd === lcSegment64 ? 72 : 56) + s * sectionSize;
        const offset = image.readUInt32LE(section + (cmd === lcSegment64 ? 48 : 40));
        if (offset > 0) firstSection = Math.min(firstSection, offset);
      }
    } else if (cmd === lcCodeSignature) {
      signatureCommand = at;
    } else if (
      (cmd === lcEncryptionInfo || cmd === lcEncryptionInfo64) &&
      image.readUInt32LE(at + 16) !== 0
    ) {
      // FairPlay-encrypted code (an App Store download) would not run under any other signature.
      throw new MachOError("the binary is encrypted by the App Store (FairPlay) and cannot be re-signed");
    }
    at += cmdsize;
  }
  if (!text || !linkedit) throw new MachOError("the image has no __TEXT or __LINKEDIT segment");
  const linkeditEnd = linkedit.fileoff + linkedit.filesize;
  let codeLimit: number;
  if (signatureCommand !== null) {
    codeLimit = image.readUInt32LE(signatureCommand + 8);
    const end = codeLimit + image.readUInt32LE(signatureCommand + 12);
    if (codeLimit < linkedit.fileoff || end > image.length || end !== linkeditEnd) {
      throw new MachOError("the code signature is not at the end of __LINKEDIT");
    }
  } else {
    if (linkeditEnd !== image.length)
      throw new MachOError("data follows __LINKEDIT; the image cannot take a signature");
    codeLimit = Math.ceil(linkeditEnd / 16) * 16;
  }
  return {
    is64,
    cputype: image.readUInt32LE(4),
    filetype: image.readUInt32LE(12),
    text,
    linkedit,
    signatureCommand,
    codeLimit,
    headerSize,
    sizeofcmds,
    headerSpace: firstSection - headerSize - sizeofcmds,
  };
}

function writeSegmentSizes(
  image: Buffer,
  segment: Segment,
  is64: boolean,
  filesize: number,
  pageSize: number,
) {
  const vmsize = Math.ceil(filesize / pageSize) * pageSize;
  if (is64) {
    image.writeBigUInt64LE(BigInt(vmsize), segment.commandOffset + 32);
    image.writeBigUInt64LE(BigInt(filesize), segment.commandOffset + 48);
  } else {
    image.writeUInt32LE(vmsize, segment.commandOffset + 28);
    image.writeUInt32LE(filesize, segment.commandOffset + 36);
  }
}

/**
 * The image cut at its code limit and grown by `signatureSize` zero bytes, with LC_CODE_SIGNATURE
 * (added when missing) and __LINKEDIT's file and memory sizes describing the new signature. The
 * header changes before any page is hashed, so the hashes cover the final load commands.
 */
export function makeRoomForSignature(image: Buffer, info: ThinImage, signatureSize: number): Buffer {
  const out = Buffer.alloc(info.codeLimit + signatureSize);
  image.copy(out, 0, 0, Math.min(info.codeLimit, image.length));
  let command = info.signatureCommand;
  if (command === null) {
    const at = info.headerSize + info.sizeofcmds;
    if (info.headerSpace < 16 || out.subarray(at, at + 16).some((byte) => byte !== 0)) {
      throw new MachOError("no room after the load commands for LC_CODE_SIGNATURE");
    }
    out.writeUInt32LE(lcCodeSignature, at);
    out.writeUInt32LE(16, at + 4);
    out.writeUInt32LE(out.readUInt32LE(16) + 1, 16);
    out.writeUInt32LE(info.sizeofcmds + 16, 20);
    command = at;
  }
  out.writeUInt32LE(info.codeLimit, command + 8);
  out.writeUInt32LE(signatureSize, command + 12);
  const pageSize = info.cputype === cpuTypeArm64 ? 0x4000 : 0x1000;
  writeSegmentSizes(
    out,
    info.linkedit,
    info.is64,
    info.codeLimit + signatureSize - info.linkedit.fileoff,
    pageSize,
  );
  return out;
}
