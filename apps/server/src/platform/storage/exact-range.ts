import { type Readable, Transform } from "node:stream";
import type { ByteRange } from "./storage-driver.ts";

/**
 * Cuts bytes `range.start`…`range.end` out of a stream that begins at byte `answeredStart` of the
 * object. For services that answer some ranges with more than was asked (several S3-compatible
 * servers send the whole object for `bytes=0-0`), so a caller never gets more than it asked for.
 */
export function sliceAnswer(whole: Readable, range: ByteRange, answeredStart: number): Readable {
  let position = answeredStart;
  const slice = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const from = Math.max(range.start - position, 0);
      const to = Math.min(range.end + 1 - position, chunk.length);
      position += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      if (position > range.end) {
        this.push(null);
        whole.destroy();
      }
      callback();
    },
  });
  whole.on("error", (error) => slice.destroy(error));
  return whole.pipe(slice);
}

/** The first byte and length a `Content-Range: bytes a-b/total` answer carries, if any. */
export function answeredRange(contentRange: string | undefined): { start: number; end: number } | null {
  const match = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? "");
  return match ? { start: Number(match[1]), end: Number(match[2]) } : null;
}
