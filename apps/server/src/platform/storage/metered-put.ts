import { createHash } from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ObjectTooLargeError, SourceStreamError, type StoredObject } from "./storage-driver.ts";

/** Counts and hashes the bytes that pass, and fails the stream past `maxBytes`. */
class HashingMeter extends Transform {
  // Not `size`: upload libraries read a body's `size` as its total length (as on a Blob).
  bytesSeen = 0;
  private readonly hash = createHash("sha256");

  constructor(private readonly maxBytes: number | undefined) {
    super();
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.bytesSeen += chunk.length;
    if (this.maxBytes !== undefined && this.bytesSeen > this.maxBytes) {
      callback(new ObjectTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest("hex");
  }
}

/**
 * The one write path of every storage driver: the body streams through a meter that hashes it,
 * counts it and cuts it off past `maxBytes` (the upload limit or the plan's remaining space),
 * while the driver only moves bytes to where they live (`write`). A driver's write must not
 * leave a visible object behind when its input stream fails.
 */
export async function meteredPut(
  key: string,
  body: Readable,
  options: { maxBytes?: number },
  write: (key: string, stream: Readable) => Promise<void>,
): Promise<StoredObject> {
  const meter = new HashingMeter(options.maxBytes);
  // A failing source (a client going away, a body cut short) fails the meter, and with it the
  // driver's write; it is reported as the source's failure, so callers do not blame storage.
  let sourceFailure: unknown = null;
  let tooLarge: ObjectTooLargeError | null = null;
  let writeGaveUp = false;
  const feeding = pipeline(body, meter).catch((error: unknown) => {
    if (error instanceof ObjectTooLargeError) tooLarge = error;
    else if (!writeGaveUp) sourceFailure = error;
    meter.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  try {
    await write(key, meter);
  } catch (error) {
    // A write that gave up on its own reads no more: stop the meter, or the source would wait for
    // it forever, and do not blame the source for that stop. (A reader that leaves a stream early
    // destroys it with an AbortError; a failing source or the limit fail it with their own.)
    if (!meter.errored || meter.errored.name === "AbortError") {
      writeGaveUp = true;
      meter.destroy();
    }
    await feeding;
    if (sourceFailure) throw new SourceStreamError(sourceFailure);
    // Drivers that abort their upload report the abort; the cause is the limit.
    if (tooLarge) throw tooLarge;
    throw error;
  }
  await feeding;
  return { key, size: meter.bytesSeen, sha256: meter.digest() };
}
