import { once } from "node:events";
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { pipeline, Readable, Writable } from "node:stream";
import { pipeline as pipelinePromise } from "node:stream/promises";
import { crc32, createDeflateRaw, createInflateRaw } from "node:zlib";
import { InspectError } from "../../errors.ts";
import type { ZipEntry } from "../../zip/index.ts";

const localSignature = 0x04034b50;
const centralSignature = 0x02014b50;
const endSignature = 0x06054b50;
/** zipalign's extra field: its id, then the alignment, then the padding. */
const alignmentExtraId = 0xd935;
const max32 = 0xffffffff;
const copyChunk = 1024 * 1024;
/** zlib's output chunks: larger than its 16 KiB default, so a big library is a few hundred writes. */
const zlibChunk = 256 * 1024;
/** 1980-01-01 00:00, the earliest DOS date: the output does not depend on the clock. */
const dosTime = 0;
const dosDate = (0 << 9) | (1 << 5) | 1;

export interface EntryOptions {
  compress: boolean;
  /** Alignment of a stored entry's data (4, or a page size for native libraries); ignored when compressed. */
  align: number;
}

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** Where an input entry's data starts: the local header's own name and extra lengths decide it. */
async function dataOffset(input: FileHandle, entry: ZipEntry): Promise<number> {
  const local = Buffer.alloc(30);
  await input.read(local, 0, 30, entry.localHeaderOffset);
  if (local.readUInt32LE(0) !== localSignature)
    throw new InspectError("corrupt", `bad local header for ${entry.name}`);
  return entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
}

/** An entry inflating past its declared size is refused as soon as it does, not after. */
function tooLarge(entry: ZipEntry): InspectError {
  return new InspectError("corrupt", `${entry.name} inflates past its declared size`);
}

async function* rangeChunks(input: FileHandle, start: number, length: number): AsyncGenerator<Buffer> {
  for (let done = 0; done < length; ) {
    const want = Math.min(copyChunk, length - done);
    const buf = Buffer.allocUnsafe(want);
    const { bytesRead } = await input.read(buf, 0, want, start + done);
    if (bytesRead === 0) throw new InspectError("corrupt", "the bundle shrank while it was read");
    done += bytesRead;
    yield buf.subarray(0, bytesRead);
  }
}

/**
 * Writes an APK (a zip) entry by entry straight to its file: stored entries aligned with
 * zipalign's extra field, compressed ones deflated as they stream, nothing held whole in memory
 * but the generated files. Local headers are patched in place once sizes are known.
 */
export class ApkWriter {
  private position = 0;
  private readonly written: Written[] = [];
  private readonly names = new Set<string>();

  private constructor(private readonly out: FileHandle) {}

  static async create(path: string): Promise<ApkWriter> {
    return new ApkWriter(await open(path, "w"));
  }

  /** Appends to the file. */
  private async write(data: Buffer): Promise<void> {
    await this.out.write(data, 0, data.length, this.position);
    this.position += data.length;
  }

  /** Overwrites bytes already written (a local header's sizes). */
  private async patch(data: Buffer, at: number): Promise<void> {
    await this.out.write(data, 0, data.length, at);
  }

  private async startEntry(name: string, options: EntryOptions): Promise<Written> {
    if (this.names.has(name))
      throw new InspectError("corrupt", `the bundle puts two files at ${name} in the APK`);
    this.names.add(name);
    const nameBytes = Buffer.from(name, "utf8");
    let extra = Buffer.alloc(0);
    if (!options.compress) {
      const start = this.position + 30 + nameBytes.length + 6;
      const padding = (options.align - (start % options.align)) % options.align;
      extra = Buffer.alloc(6 + padding);
      extra.writeUInt16LE(alignmentExtraId, 0);
      extra.writeUInt16LE(2 + padding, 2);
      extra.writeUInt16LE(options.align, 4);
    }
    const entry: Written = {
      name: nameBytes,
      method: options.compress ? 8 : 0,
      crc: 0,
      compressedSize: 0,
      size: 0,
      offset: this.position,
    };
    await this.write(Buffer.concat([this.localHeader(entry, extra.length), nameBytes, extra]));
    this.written.push(entry);
    return entry;
  }

  private localHeader(entry: Written, extraLength: number): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(localSignature, 0);
    header.writeUInt16LE(entry.method === 8 ? 20 : 10, 4);
    header.writeUInt16LE(/^[\x20-\x7e]*$/.test(entry.name.toString("latin1")) ? 0 : 0x0800, 6);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(dosTime, 10);
    header.writeUInt16LE(dosDate, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    header.writeUInt16LE(extraLength, 28);
    return header;
  }

  private async finishEntry(entry: Written): Promise<void> {
    if (this.position > max32) throw new InspectError("limit_exceeded", "the APK would pass 4 GiB");
    const sizes = Buffer.alloc(12);
    sizes.writeUInt32LE(entry.crc, 0);
    sizes.writeUInt32LE(entry.compressedSize, 4);
    sizes.writeUInt32LE(entry.size, 8);
    await this.patch(sizes, entry.offset + 14);
  }

  /** Adds a file made in memory (a converted manifest, resources.arsc, binary XML). */
  async addBuffer(name: string, data: Buffer, options: EntryOptions): Promise<void> {
    await this.addStream(name, Readable.from([data]), options, data.length === 0);
  }

  /** Writes one entry from a stream of its uncompressed bytes; returns their CRC-32 and length. */
  private async addStream(
    name: string,
    chunks: Readable,
    options: EntryOptions,
    empty = false,
    declared?: ZipEntry,
  ): Promise<{ crc: number; size: number }> {
    const entry = await this.startEntry(name, options);
    const source =
      options.compress && !empty
        ? pipeline(chunks, createDeflateRaw({ level: 6, chunkSize: zlibChunk }), () => undefined)
        : chunks;
    let crc = 0;
    let size = 0;
    if (options.compress && !empty) {
      chunks.on("data", (chunk: Buffer) => {
        crc = crc32(chunk, crc);
        size += chunk.length;
        if (declared && size > declared.uncompressedSize) chunks.destroy(tooLarge(declared));
      });
    }
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (!options.compress || empty) {
        crc = crc32(chunk, crc);
        size += chunk.length;
        if (declared && size > declared.uncompressedSize) throw tooLarge(declared);
      }
      entry.compressedSize += chunk.length;
      await this.write(chunk);
    }
    if (empty && options.compress) {
      // An empty deflate stream is a single empty final block.
      entry.compressedSize = 2;
      await this.write(Buffer.of(0x03, 0x00));
    }
    entry.crc = crc >>> 0;
    entry.size = size;
    await this.finishEntry(entry);
    return { crc: entry.crc, size };
  }

  /**
   * Copies an entry of the bundle: deflate data is copied as is when it stays compressed (and
   * inflated on the side to check its CRC), otherwise it streams through inflate or deflate.
   */
  async copyEntry(input: FileHandle, from: ZipEntry, name: string, options: EntryOptions): Promise<void> {
    if (from.method !== 0 && from.method !== 8)
      throw new InspectError("corrupt", `${from.name} uses unsupported compression method ${from.method}`);
    if (((from.flags ?? 0) & 1) !== 0) throw new InspectError("corrupt", `${from.name} is encrypted`);
    const start = await dataOffset(input, from);
    // One chunk read ahead at most: a stream of objects would otherwise buffer 16 of them.
    const raw = Readable.from(rangeChunks(input, start, from.compressedSize), { highWaterMark: 1 });
    const check = (crc: number, size: number) => {
      if (size !== from.uncompressedSize || crc >>> 0 !== from.crc32)
        throw new InspectError("corrupt", `${from.name} fails its CRC-32 check`);
    };
    if (from.method === 8 && options.compress) {
      const entry = await this.startEntry(name, options);
      const inflater = createInflateRaw({ chunkSize: zlibChunk });
      let crc = 0;
      let size = 0;
      const counter = new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          crc = crc32(chunk, crc);
          size += chunk.length;
          done(size > from.uncompressedSize ? tooLarge(from) : null);
        },
      });
      const verified = pipelinePromise(inflater, counter);
      // Awaited after the copy; this keeps a failure in the middle from going unhandled meanwhile.
      verified.catch(() => undefined);
      for await (const chunk of raw as AsyncIterable<Buffer>) {
        if (!inflater.write(chunk)) await once(inflater, "drain");
        await this.write(chunk);
      }
      inflater.end();
      await verified.catch((error: unknown) => {
        throw error instanceof InspectError
          ? error
          : new InspectError("corrupt", `${from.name} has broken deflate data`);
      });
      check(crc, size);
      Object.assign(entry, {
        crc: from.crc32,
        size: from.uncompressedSize,
        compressedSize: from.compressedSize,
      });
      await this.finishEntry(entry);
      return;
    }
    const plainData =
      from.method === 8 ? pipeline(raw, createInflateRaw({ chunkSize: zlibChunk }), () => undefined) : raw;
    let written: { crc: number; size: number };
    try {
      written = await this.addStream(name, plainData, options, from.uncompressedSize === 0, from);
    } catch (error) {
      if (error instanceof InspectError) throw error;
      throw new InspectError("corrupt", `${from.name} has broken deflate data`);
    }
    check(written.crc, written.size);
  }

  /** Writes the central directory and the end record, then closes the file. */
  async finish(): Promise<void> {
    const directoryOffset = this.position;
    const records = this.written.map((entry) => {
      const record = Buffer.alloc(46);
      const local = this.localHeader(entry, 0);
      record.writeUInt32LE(centralSignature, 0);
      record.writeUInt16LE(entry.method === 8 ? 20 : 10, 4);
      local.copy(record, 6, 4, 30);
      record.writeUInt16LE(0, 30);
      record.writeUInt32LE(entry.offset, 42);
      return Buffer.concat([record, entry.name]);
    });
    const directory = Buffer.concat(records);
    if (this.written.length > 0xffff || directoryOffset + directory.length > max32)
      throw new InspectError("limit_exceeded", "the APK would need ZIP64");
    const end = Buffer.alloc(22);
    end.writeUInt32LE(endSignature, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(directoryOffset, 16);
    await this.write(Buffer.concat([directory, end]));
    await this.out.close();
  }

  /** Closes the file after a failure (the caller removes it). */
  async abort(): Promise<void> {
    await this.out.close().catch(() => undefined);
  }
}
