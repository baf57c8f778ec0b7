import { open } from "node:fs/promises";
import { InspectError } from "./errors.ts";

/**
 * Random access to a build's bytes. Readers ask only for the ranges they need, so a build
 * in object storage can be inspected through ranged GETs without downloading it.
 */
export interface ByteSource {
  readonly size: number;
  /** Reads exactly `length` bytes at `offset`; throws InspectError("corrupt") past the end. */
  read(offset: number, length: number): Promise<Buffer>;
  close?(): Promise<void>;
}

function checkRange(size: number, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new InspectError("corrupt", `invalid read range ${offset}+${length}`);
  }
  if (offset + length > size) {
    throw new InspectError("corrupt", `read past end of file (${offset}+${length} > ${size})`);
  }
}

export async function fileSource(path: string): Promise<ByteSource> {
  const handle = await open(path, "r");
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      checkRange(size, offset, length);
      const buf = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buf, done, length - done, offset + done);
        if (bytesRead === 0) throw new InspectError("corrupt", "file shrank while reading");
        done += bytesRead;
      }
      return buf;
    },
    close: () => handle.close(),
  };
}

export function bufferSource(data: Buffer): ByteSource {
  return {
    size: data.length,
    async read(offset, length) {
      checkRange(data.length, offset, length);
      return data.subarray(offset, offset + length);
    },
  };
}
