import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";

const endSignature = 0x06054b50;
const centralSignature = 0x02014b50;
const localSignature = 0x04034b50;
const maxEndSearch = 22 + 0xffff;

async function readAt(handle: import("node:fs/promises").FileHandle, offset: number, length: number) {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset);
  return buffer.subarray(0, bytesRead);
}

/**
 * Streams one entry out of a zip on disk (bundletool's .apks holds the universal APK), reading
 * only the directory and the entry's bytes: an APK of any size passes through with flat memory.
 */
export async function openZipEntry(
  zipPath: string,
  entryName: string,
): Promise<{ stream: Readable; size: number }> {
  const handle = await open(zipPath, "r");
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, maxEndSearch);
    const tail = await readAt(handle, size - tailLength, tailLength);
    let end = -1;
    for (let index = tail.length - 22; index >= 0; index -= 1) {
      if (tail.readUInt32LE(index) === endSignature) {
        end = index;
        break;
      }
    }
    if (end < 0) throw new Error("not a zip archive");
    const entries = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    const directory = await readAt(handle, directoryOffset, directorySize);
    let position = 0;
    for (let count = 0; count < entries && position + 46 <= directory.length; count += 1) {
      if (directory.readUInt32LE(position) !== centralSignature) throw new Error("broken zip directory");
      const method = directory.readUInt16LE(position + 10);
      const compressedSize = directory.readUInt32LE(position + 20);
      const uncompressedSize = directory.readUInt32LE(position + 24);
      const nameLength = directory.readUInt16LE(position + 28);
      const extraLength = directory.readUInt16LE(position + 30);
      const commentLength = directory.readUInt16LE(position + 32);
      const localOffset = directory.readUInt32LE(position + 42);
      const name = directory.toString("utf8", position + 46, position + 46 + nameLength);
      position += 46 + nameLength + extraLength + commentLength;
      if (name !== entryName) continue;
      if ([compressedSize, uncompressedSize, localOffset].includes(0xffffffff)) {
        throw new Error("zip64 archives are not supported");
      }
      if (method !== 0 && method !== 8) throw new Error(`unsupported compression method ${method}`);
      const local = await readAt(handle, localOffset, 30);
      if (local.length < 30 || local.readUInt32LE(0) !== localSignature) throw new Error("broken zip entry");
      const start = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      if (compressedSize === 0) return { stream: Readable.from([]), size: 0 };
      const raw = createReadStream(zipPath, { start, end: start + compressedSize - 1 });
      const stream = method === 8 ? raw.pipe(createInflateRaw()) : raw;
      raw.on("error", (error) => stream.destroy(error));
      return { stream, size: uncompressedSize };
    }
    throw new Error(`${entryName} not found in the archive`);
  } finally {
    await handle.close();
  }
}
