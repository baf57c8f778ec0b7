import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { ObjectTooLargeError, SourceStreamError } from "./storage-driver.ts";

/**
 * An object written over many requests, piece after piece, by any process, and made whole at the
 * end without its bytes passing through the server again: the local disk writes every piece at
 * its offset into one file and renames it, S3 uploads parts of one multipart upload, Google
 * composes piece objects, Azure stages blocks and commits the list. Everything a driver needs to
 * go on is in these records, which the caller keeps in the database.
 */
export interface Assembly {
  /** The object it becomes; nothing is visible there until it is complete. */
  key: string;
  /** A prefix of this assembly's own for what the pieces need meanwhile. */
  scratch: string;
  /** The driver's name for the work under way (S3: the multipart upload id); "" where none. */
  handle: string;
}

/** A kept piece, as the driver needs it back to complete the object. */
export interface StoredPiece {
  /** Where its bytes begin in the object. */
  offset: number;
  size: number;
  /** An object of its own the piece's bytes are in (under the scratch prefix), if any. */
  objectKey: string | null;
  /** The driver's record of it (S3: part numbers and ETags; Azure: block ids). */
  detail: string | null;
  /**
   * Set by a driver that syncs the piece to disk after answering (the local disk, so the sync
   * runs while the next piece arrives): it settles once the piece would survive a crash of the
   * machine, and the piece may be recorded only then. Not a part of the record.
   */
  durable?: Promise<void>;
}

export interface PieceInput {
  /** Where the piece begins: the end of the last kept piece. */
  offset: number;
  body: Readable;
  /** The piece may not be longer (the body fails past it). */
  maxBytes: number;
  /** The object's final size: the piece that reaches it is the last. */
  totalBytes: number;
}

/**
 * Storage that assembles objects from pieces. A piece is kept whole or not at all; a piece may
 * take in kept pieces right before it (S3 joins pieces smaller than its least part size): its
 * record then begins at the first of them and replaces their records, and the caller deletes
 * their objects once it has recorded that.
 */
export interface PieceStore {
  startAssembly(key: string, scratch: string): Promise<Assembly>;
  storePiece(assembly: Assembly, piece: PieceInput, earlier: StoredPiece[]): Promise<StoredPiece>;
  /** Makes `assembly.key` the pieces' bytes in order and removes what only the pieces needed. */
  completeAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void>;
  /** Gives the assembly up with everything it stored; never leaves the object. */
  abortAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void>;
}

/** A fresh name under the scratch prefix for a piece's own object. */
export function pieceObjectKey(scratch: string, offset: number): string {
  return `${scratch}piece-${offset}-${randomBytes(4).toString("hex")}`;
}

/**
 * A piece's bytes as they arrive: a failing body is reported as the source's failure (a client
 * that went away), and a body longer than `maxBytes` fails once it passes it.
 */
export async function* pieceChunks(body: AsyncIterable<Uint8Array>, maxBytes: number) {
  let seen = 0;
  const iterator = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw error instanceof SourceStreamError ? error : new SourceStreamError(error);
    }
    if (next.done) return;
    seen += next.value.length;
    if (seen > maxBytes) throw new ObjectTooLargeError(maxBytes);
    yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.length);
  }
}

/**
 * Regroups a stream of chunks into blocks of exactly `blockBytes`, except that a block is never
 * cut so that less than `leastBytes` would be left for the last one: the last block holds
 * between `leastBytes` and `blockBytes + leastBytes` bytes (or all there are). Memory stays at
 * about one block plus the least size.
 */
export async function* blocksOf(
  chunks: AsyncIterable<Buffer>,
  blockBytes: number,
  leastBytes = 0,
): AsyncGenerator<{ bytes: Buffer; last: boolean }> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of chunks) {
    held.push(chunk);
    heldBytes += chunk.length;
    while (heldBytes >= blockBytes + Math.max(leastBytes, 1)) {
      const all = Buffer.concat(held, heldBytes);
      yield { bytes: all.subarray(0, blockBytes), last: false };
      held = [all.subarray(blockBytes)];
      heldBytes -= blockBytes;
    }
  }
  if (heldBytes > 0) yield { bytes: Buffer.concat(held, heldBytes), last: true };
}
