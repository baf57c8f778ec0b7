import { crc32, deflateRawSync } from "node:zlib";

export interface SyntheticEntry {
  name: string | Buffer;
  data: Buffer;
  deflate?: boolean;
  /** Overrides written into the central directory instead of the true values. */
  declaredSize?: number;
  declaredCompressedSize?: number;
  declaredCrc?: number;
  localHeaderOffset?: number;
  /** Writes sizes and offset as 0xFFFFFFFF with a ZIP64 extra field. */
  zip64?: boolean;
  /** Extra bytes in the local header only, so local and central extra lengths differ. */
  localExtra?: Buffer;
}

export interface SyntheticOptions {
  comment?: Buffer;
  zip64End?: boolean;
  entryCountOverride?: number;
  cdOffsetOverride?: number;
  cdSizeOverride?: number;
}

/** Writes a zip archive byte by byte so tests can produce structures no well-behaved tool would. */
export function buildZip(entries: SyntheticEntry[], options: SyntheticOptions = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = typeof entry.name === "string" ? Buffer.from(entry.name) : entry.name;
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data;
    const localExtra = entry.localExtra ?? Buffer.alloc(0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(entry.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(localExtra.length, 28);
    const localOffset = entry.localHeaderOffset ?? offset;
    parts.push(local, name, localExtra, body);
    offset += 30 + name.length + localExtra.length + body.length;

    const size = entry.declaredSize ?? entry.data.length;
    const compressed = entry.declaredCompressedSize ?? body.length;
    let extra = Buffer.alloc(0);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(0x031e, 4);
    header.writeUInt16LE(entry.zip64 ? 45 : 20, 6);
    header.writeUInt16LE(entry.deflate ? 8 : 0, 10);
    header.writeUInt32LE(entry.declaredCrc ?? crc32(entry.data), 16);
    if (entry.zip64) {
      extra = Buffer.alloc(28);
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(compressed), 12);
      extra.writeBigUInt64LE(BigInt(localOffset), 20);
      header.writeUInt32LE(0xffffffff, 20);
      header.writeUInt32LE(0xffffffff, 24);
      header.writeUInt32LE(0xffffffff, 42);
    } else {
      header.writeUInt32LE(compressed, 20);
      header.writeUInt32LE(size, 24);
      header.writeUInt32LE(localOffset, 42);
    }
    header.writeUInt16LE(name.length, 28);
    header.writeUInt16LE(extra.length, 30);
    central.push(header, name, extra);
  }
  const cd = Buffer.concat(central);
  const cdOffset = options.cdOffsetOverride ?? offset;
  const cdSize = options.cdSizeOverride ?? cd.length;
  const count = options.entryCountOverride ?? entries.length;
  parts.push(cd);
  if (options.zip64End) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(cdSize), 40);
    record.writeBigUInt64LE(BigInt(cdOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + cd.length), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const comment = options.comment ?? Buffer.alloc(0);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(options.zip64End ? 0xffff : count, 8);
  eocd.writeUInt16LE(options.zip64End ? 0xffff : count, 10);
  eocd.writeUInt32LE(options.zip64End ? 0xffffffff : cdSize, 12);
  eocd.writeUInt32LE(options.zip64End ? 0xffffffff : cdOffset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  parts.push(eocd, comment);
  return Buffer.concat(parts);
}
