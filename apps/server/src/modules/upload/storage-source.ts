import { type ByteSource, InspectError } from "@tarmac/inspector";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";

const blockSize = 256 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A build in storage as random-access bytes, through ranged reads. Readers ask for many small
 * pieces near each other (zip headers, then entries), so whole blocks are fetched and the last
 * few kept: the number of round trips to object storage stays small.
 */
export function storageSource(driver: StorageDriver, key: string, size: number): ByteSource {
  const cache = new Map<number, Buffer>();
  const block = async (index: number): Promise<Buffer> => {
    const cached = cache.get(index);
    if (cached) return cached;
    const start = index * blockSize;
    const end = Math.min(size, start + blockSize) - 1;
    const data = await readAll(await driver.read(key, { start, end }));
    if (cache.size >= 8) cache.delete(cache.keys().next().value as number);
    cache.set(index, data);
    return data;
  };
  return {
    size,
    async read(offset, length) {
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
        throw new InspectError("corrupt", `invalid read range ${offset}+${length}`);
      }
      if (offset + length > size) {
        throw new InspectError("corrupt", `read past end of file (${offset}+${length} > ${size})`);
      }
      if (length > blockSize * 4)
        return readAll(await driver.read(key, { start: offset, end: offset + length - 1 }));
      const parts: Buffer[] = [];
      let position = offset;
      const stop = offset + length;
      while (position < stop) {
        const index = Math.floor(position / blockSize);
        const data = await block(index);
        const from = position - index * blockSize;
        const to = Math.min(data.length, stop - index * blockSize);
        parts.push(data.subarray(from, to));
        position = index * blockSize + to;
      }
      return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    },
  };
}
