import { createHash } from "node:crypto";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";

/** Reads bytes [offset, offset + length) of a stored file into one buffer (a slice, never the file). */
export async function readSlice(
  storage: StorageDriver,
  key: string,
  offset: number,
  length: number,
): Promise<Buffer> {
  const stream = await storage.read(key, { start: offset, end: offset + length - 1 });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  if (size !== length) throw new Error(`storage gave ${size} bytes of ${key} at ${offset}, not ${length}`);
  return Buffer.concat(chunks, size);
}

/** A stored file's digest, streamed. */
export async function digestOf(
  storage: StorageDriver,
  key: string,
  algorithm: "md5" | "sha256",
): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of await storage.read(key)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Runs `step` again after a pause while it fails in a way worth retrying, at most `tries` times. */
export async function withRetries<T>(
  tries: number,
  pauseMs: number,
  retryable: (error: unknown) => boolean,
  step: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= tries || !retryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs * attempt));
    }
  }
}

/** Compares dotted build numbers part by part as numbers ("1.10" > "1.9"); text parts compare as text. */
export function compareBuildNumbers(a: string, b: string): number {
  const left = a.split(".");
  const right = b.split(".");
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const x = left[index] ?? "0";
    const y = right[index] ?? "0";
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}
