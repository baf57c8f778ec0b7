import type { FileHandle } from "node:fs/promises";

/** One central directory record of the APK being signed, as far as re-writing it needs. */
export interface CentralEntry {
  name: string;
  nameBytes: Buffer;
  versionMadeBy: number;
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  internalAttributes: number;
  externalAttributes: number;
  localHeaderOffset: number;
}

const endSignature = 0x06054b50;
const centralSignature = 0x02014b50;
const localSignature = 0x04034b50;
const maxComment = 0xffff;

export class ApkFormatError extends Error {}

async function readAt(handle: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset);
  if (bytesRead !== length) throw new ApkFormatError("the file ends early");
  return buffer;
}

/**
 * Reads the central directory. ZIP64 archives are refused: Android does not install them, and
 * signing one would need a layout apksigner does not produce either.
 */
export async function readCentralDirectory(handle: FileHandle): Promise<CentralEntry[]> {
  const { size } = await handle.stat();
  const tailLength = Math.min(size, 22 + maxComment);
  if (tailLength < 22) throw new ApkFormatError("the file is too small to be an APK");
  const tail = await readAt(handle, size - tailLength, tailLength);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === endSignature && i + 22 + tail.readUInt16LE(i + 20) === tail.length) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ApkFormatError("no zip end record: this is not an APK");
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff)
    throw new ApkFormatError("ZIP64 APKs are not supported");
  if (directoryOffset + directorySize > size)
    throw new ApkFormatError("the zip central directory lies past the end");
  const directory = await readAt(handle, directoryOffset, directorySize);
  const entries: CentralEntry[] = [];
  let cursor = 0;
  for (let i = 0; i < count; i++) {
    if (cursor + 46 > directory.length || directory.readUInt32LE(cursor) !== centralSignature) {
      throw new ApkFormatError("broken zip central directory");
    }
    const nameLength = directory.readUInt16LE(cursor + 28);
    const extraLength = directory.readUInt16LE(cursor + 30);
    const commentLength = directory.readUInt16LE(cursor + 32);
    const nameBytes = Buffer.from(directory.subarray(cursor + 46, cursor + 46 + nameLength));
    const entry: CentralEntry = {
      name: nameBytes.toString("utf8"),
      nameBytes,
      versionMadeBy: directory.readUInt16LE(cursor + 4),
      versionNeeded: directory.readUInt16LE(cursor + 6),
      flags: directory.readUInt16LE(cursor + 8),
      method: directory.readUInt16LE(cursor + 10),
      time: directory.readUInt16LE(cursor + 12),
      date: directory.readUInt16LE(cursor + 14),
      crc32: directory.readUInt32LE(cursor + 16),
      compressedSize: directory.readUInt32LE(cursor + 20),
      uncompressedSize: directory.readUInt32LE(cursor + 24),
      internalAttributes: directory.readUInt16LE(cursor + 36),
      externalAttributes: directory.readUInt32LE(cursor + 38),
      localHeaderOffset: directory.readUInt32LE(cursor + 42),
    };
    if (entry.method !== 0 && entry.method !== 8) {
      throw new ApkFormatError(
        `${entry.name} uses compression method ${entry.method}, which Android cannot read`,
      );
    }
    if (entry.flags & 1) throw new ApkFormatError(`${entry.name} is encrypted`);
    entries.push(entry);
    cursor += 46 + nameLength + extraLength + commentLength;
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.name)) throw new ApkFormatError(`the zip holds ${entry.name} twice`);
    seen.add(entry.name);
  }
  return entries;
}

/** Where an entry's data starts: after its local header, whose name and extra lengths may differ from the central copy. */
export async function dataOffset(handle: FileHandle, entry: CentralEntry): Promise<number> {
  const header = await readAt(handle, entry.localHeaderOffset, 30);
  if (header.readUInt32LE(0) !== localSignature)
    throw new ApkFormatError(`bad local header for ${entry.name}`);
  return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/** Zip's local file header, with an alignment extra field (apksigner's 0xd935) padding the data to `alignment`. */
export function localHeader(entry: CentralEntry, offset: number, alignment: number): Buffer {
  const fixed = 30 + entry.nameBytes.length + 6;
  const padding = (alignment - ((offset + fixed) % alignment)) % alignment;
  const header = Buffer.alloc(30);
  header.writeUInt32LE(localSignature, 0);
  header.writeUInt16LE(entry.versionNeeded, 4);
  header.writeUInt16LE(entry.flags & ~0x08, 6); // sizes are in the header: no data descriptor follows
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt16LE(entry.time, 10);
  header.writeUInt16LE(entry.date, 12);
  header.writeUInt32LE(entry.crc32, 14);
  header.writeUInt32LE(entry.compressedSize, 18);
  header.writeUInt32LE(entry.uncompressedSize, 22);
  header.writeUInt16LE(entry.nameBytes.length, 26);
  // Compressed entries are not aligned and carry no extra field.
  if (alignment <= 1) return Buffer.concat([header, entry.nameBytes]);
  header.writeUInt16LE(6 + padding, 28);
  const extra = Buffer.alloc(6 + padding);
  extra.writeUInt16LE(0xd935, 0);
  extra.writeUInt16LE(2 + padding, 2);
  extra.writeUInt16LE(alignment, 4);
  return Buffer.concat([header, entry.nameBytes, extra]);
}

export function centralRecord(entry: CentralEntry): Buffer {
  const record = Buffer.alloc(46);
  record.writeUInt32LE(centralSignature, 0);
  record.writeUInt16LE(entry.versionMadeBy, 4);
  record.writeUInt16LE(entry.versionNeeded, 6);
  record.writeUInt16LE(entry.flags & ~0x08, 8);
  record.writeUInt16LE(entry.method, 10);
  record.writeUInt16LE(entry.time, 12);
  record.writeUInt16LE(entry.date, 14);
  record.writeUInt32LE(entry.crc32, 16);
  record.writeUInt32LE(entry.compressedSize, 20);
  record.writeUInt32LE(entry.uncompressedSize, 24);
  record.writeUInt16LE(entry.nameBytes.length, 28);
  record.writeUInt16LE(entry.internalAttributes, 36);
  record.writeUInt32LE(entry.externalAttributes, 38);
  record.writeUInt32LE(entry.localHeaderOffset, 42);
  return Buffer.concat([record, entry.nameBytes]);
}

export function endRecord(count: number, directorySize: number, directoryOffset: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(endSignature, 0);
  record.writeUInt16LE(count, 8);
  record.writeUInt16LE(count, 10);
  record.writeUInt32LE(directorySize, 12);
  record.writeUInt32LE(directoryOffset, 16);
  return record;
}
