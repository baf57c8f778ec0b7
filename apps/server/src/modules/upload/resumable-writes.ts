/**
 * Storing a resumable upload's request bodies: one request at a time per upload (a claim in the
 * database, so it holds across processes), piece after piece into the storage's assembly, each
 * piece recorded with the new offset as soon as it is kept.
 */

import type { Hash } from "node:crypto";
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Assembly, StoredPiece } from "../../platform/storage/assembly.ts";
import { storeInPieces } from "../../platform/storage/pieces.ts";
import { ObjectTooLargeError, SourceStreamError } from "../../platform/storage/storage-driver.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import {
  claimTusWriter,
  findTusUploadOfUser,
  listTusParts,
  recordTusPart,
  releaseTusWriter,
  renewTusWriter,
  type TusUploadPartRow,
  type TusUploadRow,
} from "./resumable-upload.repo.ts";
import type { RunningHashes } from "./running-hashes.ts";
import { uploadError } from "./upload-errors.ts";

export const offsetConflict = (offset: number) =>
  new AppError("upload_offset_conflict", 409, `The upload is at offset ${offset}: resume from there.`);

export const uploadExpired = () =>
  new AppError("upload_expired", 410, "This upload has expired and its bytes are gone: start a new one.");

export const beyondLength = (length: number) =>
  new AppError("upload_length_exceeded", 413, `The upload was declared as ${length} bytes: send no more.`);

const uploadBusy = (offset: number) =>
  new AppError(
    "upload_busy",
    409,
    `Another request is still sending bytes of this upload (at offset ${offset}): ask for the offset and resume from there.`,
  );

/**
 * A writer's claim lapses when no bytes arrived for this long: a connection that died without a
 * word (a closed laptop lid) must not keep the upload from its own client's next request.
 */
const claimLapseMs = 15_000;
const renewEveryMs = 5_000;
/** A request finding another still writing waits this long for it to end or lapse. */
const claimWaitMs = claimLapseMs + 5_000;

export const assemblyOf = (upload: TusUploadRow): Assembly => ({
  key: upload.targetKey as string,
  scratch: upload.storagePrefix,
  handle: upload.assemblyHandle,
});

export const pieceOf = (part: TusUploadPartRow): StoredPiece => ({
  offset: part.startOffset,
  size: part.size,
  objectKey: part.key,
  detail: part.detail,
});

/** The body's bytes, counting when the last arrived, and fed to `hash` when there is one. */
function watched(piece: Readable, hash: Hash | undefined, seen: { at: number }): Readable {
  return Readable.from(
    (async function* () {
      for await (const chunk of piece as AsyncIterable<Buffer>) {
        seen.at = Date.now();
        hash?.update(chunk);
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
}

export class ResumableWrites {
  constructor(
    private readonly deps: {
      db: Database;
      storage: StorageResolver;
      hashes: RunningHashes;
      partBytes: number;
      expiryFrom: (now: Date) => Date;
    },
  ) {}

  /**
   * Stores a body from the upload's offset in pieces of at most `partBytes`, each kept whole by
   * the storage and then recorded with the new offset in one statement that requires this
   * request's claim (recordTusPart). A connection that breaks off keeps every piece recorded
   * before; the piece under way is given up, so the upload resumes at the last piece boundary.
   */
  async receive(
    upload: TusUploadRow,
    body: { stream: AsyncIterable<Uint8Array>; declaredBytes: number | null },
  ): Promise<TusUploadRow> {
    const writer = randomBytes(12).toString("hex");
    let current = await this.claim(upload, writer);
    const { db } = this.deps;
    const seen = { at: Date.now() };
    const heartbeat = setInterval(() => {
      if (Date.now() - seen.at < claimLapseMs)
        void renewTusWriter(db, upload.id, writer, new Date(Date.now() + claimLapseMs)).catch(
          () => undefined,
        );
    }, renewEveryMs);
    heartbeat.unref();
    const target = await this.deps.storage.forOrganization(upload.organizationId);
    const assembly = assemblyOf(upload);
    let earlier = (await listTusParts(db, upload.id)).map(pieceOf);
    let hash = this.deps.hashes.resume(upload.id, current.uploadOffset) ?? undefined;
    const remaining = upload.uploadLength - current.uploadOffset;
    // Each piece is recorded once it is durable, while the next one already arrives: at most one
    // record waits at a time, and they are made in order.
    let next = current.uploadOffset;
    let recording: Promise<void> = Promise.resolve();
    try {
      await storeInPieces(
        body.stream,
        { pieceBytes: this.deps.partBytes, maxBytes: Math.min(remaining, body.declaredBytes ?? remaining) },
        async (piece, pieceBytes) => {
          const from = next;
          const working = hash?.copy();
          const stored = await target.driver.storePiece(
            assembly,
            {
              offset: from,
              body: watched(piece, working, seen),
              maxBytes: pieceBytes,
              totalBytes: upload.uploadLength,
            },
            earlier,
          );
          const before = earlier;
          earlier = [...earlier.filter((kept) => kept.offset < stored.offset), stored];
          next = stored.offset + stored.size;
          hash = working;
          const previous = recording;
          recording = (async () => {
            await previous;
            await stored.durable;
            current = await this.record(current, writer, from, stored, before);
            if (working) this.deps.hashes.keep(upload.id, current.uploadOffset, working);
          })();
          // Its failure reaches the next piece or the end of the request, never goes unheard.
          recording.catch(() => undefined);
          // The record before this piece's must be made before the next piece starts.
          await previous;
        },
      );
      await recording;
    } catch (error) {
      // The pieces kept before the failure still count: their records are made first.
      await recording.catch(() => undefined);
      if (error instanceof ObjectTooLargeError) throw beyondLength(upload.uploadLength);
      if (error instanceof SourceStreamError) {
        throw AppError.badRequest(
          `The request broke off; the upload is at offset ${current.uploadOffset}: resume from there.`,
        );
      }
      if (error instanceof AppError || !target.custom) throw error;
      await target.writeRefused?.(error);
      throw uploadError(10);
    } finally {
      clearInterval(heartbeat);
      await releaseTusWriter(db, upload.id, writer).catch(() => undefined);
    }
    return current;
  }

  /**
   * Claims the upload at its offset for this request. Another request still writing is waited
   * for (it ends, or lapses once its bytes stop); a different offset is 409 at once.
   */
  private async claim(upload: TusUploadRow, writer: string): Promise<TusUploadRow> {
    const deadline = Date.now() + claimWaitMs;
    for (;;) {
      const now = new Date();
      const claim = {
        offset: upload.uploadOffset,
        writer,
        until: new Date(now.getTime() + claimLapseMs),
        now,
      };
      const claimed = await claimTusWriter(this.deps.db, upload, claim);
      if (claimed) return claimed;
      const latest = await findTusUploadOfUser(this.deps.db, upload.id, upload.userId);
      if (!latest) throw AppError.notFound();
      if (latest.expiresAt.getTime() <= now.getTime()) throw uploadExpired();
      if (latest.uploadOffset !== upload.uploadOffset) throw offsetConflict(latest.uploadOffset);
      if (Date.now() > deadline) throw uploadBusy(latest.uploadOffset);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Records a kept piece; one that cannot be recorded is deleted and the reason answered. */
  private async record(
    upload: TusUploadRow,
    writer: string,
    from: number,
    stored: StoredPiece,
    earlier: StoredPiece[],
  ): Promise<TusUploadRow> {
    const { db } = this.deps;
    const { driver } = await this.deps.storage.forOrganization(upload.organizationId);
    const ownObject = stored.objectKey && !earlier.some((kept) => kept.objectKey === stored.objectKey);
    const drop = async () => {
      if (ownObject) await driver.delete(stored.objectKey as string).catch(() => undefined);
    };
    const now = new Date();
    const part = {
      startOffset: stored.offset,
      size: stored.size,
      key: stored.objectKey,
      detail: stored.detail,
    };
    const recorded = await db
      .transaction((tx) => recordTusPart(tx, upload, { writer, from }, part, this.deps.expiryFrom(now), now))
      .catch(async (error: unknown) => {
        await drop();
        throw error;
      });
    if (!recorded) {
      await drop();
      const latest = await findTusUploadOfUser(db, upload.id, upload.userId);
      if (!latest) throw AppError.notFound();
      if (latest.expiresAt.getTime() <= now.getTime()) throw uploadExpired();
      throw offsetConflict(latest.uploadOffset);
    }
    // What the piece took in is in it now.
    for (const key of recorded.replacedKeys) await driver.delete(key).catch(() => undefined);
    return recorded.row;
  }
}
