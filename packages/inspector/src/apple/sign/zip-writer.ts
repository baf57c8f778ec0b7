import { createReadStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { crc32, deflateRawSync } from "node:zlib";
import type { ZipEntry } from "../../zip/types.ts";

const fixedTime = { time: 0, date: (2024 - 1980) * 512 + 1 * 32 + 1 };
const limit32 = 0xffffffff;

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
  externalAttributes: number;
}

/** Where an entry's data starts in the archive: after its local header, name and extra field. */
export async function entryDataOffset(input: FileHandle, entry: ZipEntry): Promise<number> {
  const header = Buffer.alloc(30);
  await input.read(header, 0, 30, entry.localHeaderOffset);
  if (header.readUInt32LE(0) !== 0x04034b50) throw new Error(`bad local header for ${entry.name}`);
  return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/**
 * A ZIP written front to back: entries copied as they are (their compressed bytes untouched) or
 * new ones deflated from memory. Sizes are known before each header, so no data descriptors.
 */
export class ZipWriter {
  private offset = 0;
  private readonly written: Written[] = [];

  constructor(private readonly output: FileHandle) {}

  private async write(bytes: Buffer): Promise<void> {
    await this.output.write(bytes, 0, bytes.length, this.offset);
    this.offset += bytes.length;
  }

  private localHeader(entry: Omit<Written, "offset" | "externalAttributes">): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // names are UTF-8
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(fixedTime.time, 10);
    header.writeUInt16LE(fixedTime.date, 12);
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    return Buffer.concat([header, entry.name]);
  }

  private checkSize(size: number): void {
    if (this.offset + size > limit32 || size > limit32) {
      throw new Error("the re-signed IPA would pass 4 GiB, which needs ZIP64");
    }
  }

  async addBuffer(name: string, data: Buffer, mode = 0o644): Promise<void> {
    const directory = name.endsWith("/");
    const compressed = directory ? data : deflateRawSync(data, { level: 6 });
    const method = directory || compressed.length >= data.length ? 0 : 8;
    const body = method === 8 ? compressed : data;
    this.checkSize(body.length);
    const entry = {
      name: Buffer.from(name),
      method,
      crc: crc32(data),
      compressedSize: body.length,
      size: data.length,
    };
    this.written.push({
      ...entry,
      offset: this.offset,
      externalAttributes: this.attributes(directory, mode),
    });
    await this.write(this.localHeader(entry));
    await this.write(body);
  }

  /** Copies an entry's compressed bytes from another archive as they are. */
  async copyEntry(input: FileHandle, path: string, entry: ZipEntry, mode = 0o644): Promise<void> {
    this.checkSize(entry.compressedSize);
    const start = await entryDataOffset(input, entry);
    const header = {
      name: Buffer.from(entry.name),
      method: entry.method,
      crc: entry.crc32,
      compressedSize: entry.compressedSize,
      size: entry.uncompressedSize,
    };
    this.written.push({
      ...header,
      offset: this.offset,
      externalAttributes: this.attributes(entry.isDirectory, mode),
    });
    await this.write(this.localHeader(header));
    if (entry.compressedSize === 0) return;
    const stream = createReadStream(path, {
      start,
      end: start + entry.compressedSize - 1,
      highWaterMark: 1 << 20,
    });
    for await (const chunk of stream) await this.write(chunk as Buffer);
  }

  private attributes(directory: boolean, mode: number): number {
    return (((directory ? 0o040755 : 0o100000 | mode) << 16) | (directory ? 0x10 : 0)) >>> 0;
  }

  async finish(): Promise<number> {
    const start = this.offset;
    const parts: Buffer[] = [];
    for (const entry of this.written) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode bits count
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0800, 8);
      header.writeUInt16LE(entry.method, 10);
      header.writeUInt16LE(fixedTime.time, 12);
      header.writeUInt16LE(fixedTime.date, 14);
      header.writeUInt32LE(entry.crc >>> 0, 16);
      header.writeUInt32LE(entry.compressedSize, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      header.writeUInt32LE(entry.externalAttributes, 38);
      header.writeUInt32LE(entry.offset, 42);
      parts.push(header, entry.name);
    }
    const directory = Buffer.concat(parts);
    this.checkSize(directory.length + 22);
    if (this.written.length > 0xffff)
      throw new Error("the re-signed IPA has too many files for a ZIP without ZIP64");
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.write(directory);
    await this.write(end);
    return this.offset;
  }
}
