/**
 * Resumable uploads (tus 1.0.0): a build's bytes arrive over any number of requests, to any of
 * the web processes, and are then finished by a preload or CI upload naming the upload in
 * `upload_id`. Each request's body is stored in parts through the organization's storage driver;
 * the database row says how far the upload got, so the offset a client resumes from is the one
 * every process agrees on.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import { storeInPieces } from "../../platform/storage/pieces.ts";
import { ObjectTooLargeError, SourceStreamError } from "../../platform/storage/storage-driver.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { IncomingFile, UploadSource } from "../../platform/storage/upload-source.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import { watchPlanLimits } from "./plan-limit-events.ts";
import { assertRoomForUpload, positiveId, tooManyPendingUploads } from "./preload.service.ts";
import {
  countLiveTusUploads,
  findTusUploadOfUser,
  insertTusUpload,
  recordTusPart,
  type TusUploadRow,
  takeTusUpload,
} from "./resumable-upload.repo.ts";
import { canStartResumableUpload, canUseResumableUpload } from "./upload.policy.ts";
import { uploadError } from "./upload-errors.ts";
import { checkFileName, fileTooLarge } from "./upload-intake.ts";
import type { UploadSlots } from "./upload-slots.ts";

/** What a tus client is told about an upload (HEAD, and the answers to POST and PATCH). */
export interface ResumableUploadState {
  id: string;
  offset: number;
  length: number;
  /** The Upload-Metadata header as the client sent it. */
  metadata: string;
  expiresAt: Date;
}

/** A request body of tus bytes, read as it arrives. */
export interface TusBody {
  stream: AsyncIterable<Uint8Array>;
  /** Content-Length, when the client declared one. */
  declaredBytes: number | null;
}

const idPattern = /^[0-9a-f]{32}$/;

const offsetConflict = (offset: number) =>
  new AppError("upload_offset_conflict", 409, `The upload is at offset ${offset}: resume from there.`);

const uploadExpired = () =>
  new AppError("upload_expired", 410, "This upload has expired and its bytes are gone: start a new one.");

const beyondLength = (length: number) =>
  new AppError("upload_length_exceeded", 413, `The upload was declared as ${length} bytes: send no more.`);

const uploadIncomplete = (upload: TusUploadRow) =>
  new AppError(
    "upload_incomplete",
    409,
    `The upload has ${upload.uploadOffset} of its ${upload.uploadLength} bytes: send the rest before finishing it.`,
  );

function stateOf(row: TusUploadRow): ResumableUploadState {
  return {
    id: row.id,
    offset: row.uploadOffset,
    length: row.uploadLength,
    metadata: row.metadata,
    expiresAt: row.expiresAt,
  };
}

export class ResumableUploadService {
  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      usage: OrganizationUsageService;
      events: DomainEvents;
      storage: StorageResolver;
      slots: UploadSlots;
      maxUploadBytes: number;
      pendingPerUser: number;
      lifetimeHours: number;
      partBytes: number;
    },
  ) {}

  private expiryFrom(now: Date): Date {
    return new Date(now.getTime() + this.deps.lifetimeHours * 3600 * 1000);
  }

  /**
   * POST /api/uploads/: a new upload of `length` bytes for the organization and file named in
   * the metadata. What a plain upload would be refused for before its first byte (too large for
   * the instance, no room left in the plan, a file type no build has) is refused here, so a
   * client does not send gigabytes to learn it. With a body (creation-with-upload), the body is
   * the upload's first bytes.
   */
  async create(
    userId: number,
    clientAddress: string,
    input: { length: number; metadata: Record<string, string>; rawMetadata: string },
    body: TusBody | null,
  ): Promise<ResumableUploadState> {
    if (input.length > this.deps.maxUploadBytes) throw fileTooLarge(this.deps.maxUploadBytes);
    const fileName = input.metadata.filename ?? "";
    if (!fileName) throw AppError.validation({ filename: ["Name the file in Upload-Metadata (filename)."] });
    checkFileName("filename", fileName);
    const organizationId = positiveId(input.metadata, "organization", true) as number;
    const member = await this.deps.membership.getMembership(userId, organizationId);
    if (!canStartResumableUpload(member.role)) throw AppError.forbidden();
    const quota = await this.deps.usage.getQuota(organizationId);
    if (!quota) throw AppError.notFound();
    await watchPlanLimits(this.deps.events, organizationId, () => assertRoomForUpload(quota, input.length));
    const now = new Date();
    if ((await countLiveTusUploads(this.deps.db, organizationId, userId, now)) >= this.deps.pendingPerUser) {
      throw tooManyPendingUploads(this.deps.pendingPerUser);
    }
    const id = randomBytes(16).toString("hex");
    const row = await insertTusUpload(this.deps.db, {
      id,
      organizationId,
      userId,
      fileName,
      metadata: input.rawMetadata,
      uploadLength: input.length,
      storagePrefix: `orgs/${organizationId}/uploads/${id}/`,
      expiresAt: this.expiryFrom(now),
    });
    if (!body) return stateOf(row);
    return this.deps.slots.withSlot(userId, clientAddress, () => this.receive(row, body));
  }

  /** HEAD /api/uploads/{id}/: how far the upload got. */
  async status(userId: number, id: string): Promise<ResumableUploadState> {
    return stateOf(await this.ownUpload(userId, id));
  }

  /**
   * PATCH /api/uploads/{id}/: bytes from `offset`, which must be where the upload stands (409
   * otherwise, as tus asks). The body is kept part by part as it arrives (see receive).
   */
  async append(
    userId: number,
    clientAddress: string,
    id: string,
    offset: number,
    body: TusBody,
  ): Promise<ResumableUploadState> {
    const upload = await this.ownUpload(userId, id);
    if (offset !== upload.uploadOffset) throw offsetConflict(upload.uploadOffset);
    if (body.declaredBytes !== null && offset + body.declaredBytes > upload.uploadLength) {
      throw beyondLength(upload.uploadLength);
    }
    return this.deps.slots.withSlot(userId, clientAddress, () => this.receive(upload, body));
  }

  /** DELETE /api/uploads/{id}/ (termination): the row at once, then its parts. */
  async terminate(userId: number, id: string): Promise<void> {
    const upload = await this.ownUpload(userId, id, { evenExpired: true });
    const taken = await this.deps.db.transaction((tx) => takeTusUpload(tx, upload));
    if (!taken) throw AppError.notFound();
    await this.deleteObjects(
      upload.organizationId,
      taken.parts.map((part) => part.key),
    );
  }

  /**
   * The form of a preload or CI upload, where a field `upload_id` naming a finished resumable
   * upload of the caller stands in for the file. Its bytes then go the way a streamed file goes
   * (checks, storage, inspection), and the resumable upload is gone once they have been read,
   * whatever the answer. A finish refused before that (another organization, no permission)
   * leaves it to be finished again.
   */
  withFinishedUpload(userId: number, source: UploadSource): UploadSource {
    return {
      clientAddress: source.clientAddress,
      read: async (onFile) => {
        const read = await source.read(onFile);
        const uploadId = read.fields.upload_id?.trim();
        if (!uploadId) return read;
        if (read.file !== undefined) {
          throw AppError.validation({
            upload_id: ["Send the build as a file or name a finished upload in upload_id, not both."],
          });
        }
        const upload = await this.ownUpload(userId, uploadId, { expiredAsMissing: true });
        if (upload.uploadOffset !== upload.uploadLength) throw uploadIncomplete(upload);
        const taken: { keys: string[] } = { keys: [] };
        try {
          const file = await onFile(this.finishedFile(upload, taken), read.fields);
          return { fields: read.fields, file };
        } finally {
          await this.deleteObjects(upload.organizationId, taken.keys);
        }
      },
    };
  }

  /**
   * A finished upload as the file of a form. The upload is taken (its row deleted under a lock)
   * when its bytes are first read, so two finishes racing cannot both use it; `taken` learns its
   * part keys for deletion afterwards.
   */
  private finishedFile(upload: TusUploadRow, taken: { keys: string[] }): IncomingFile {
    const { db, storage } = this.deps;
    async function* bytes() {
      const found = await db.transaction((tx) => takeTusUpload(tx, upload));
      if (!found) throw AppError.notFound();
      taken.keys = found.parts.map((part) => part.key);
      let expected = 0;
      for (const part of found.parts) {
        if (part.startOffset !== expected)
          throw new Error(`resumable upload ${upload.id} misses bytes at ${expected}`);
        expected += part.size;
      }
      if (expected !== upload.uploadLength)
        throw new Error(`resumable upload ${upload.id} has ${expected} bytes`);
      const { driver } = await storage.forOrganization(upload.organizationId);
      for (const part of found.parts) yield* await driver.read(part.key);
    }
    return {
      fieldName: "upload_id",
      fileName: upload.fileName,
      contentType: "application/octet-stream",
      body: Readable.from(bytes(), { objectMode: false }),
      truncated: () => false,
      declaredRequestBytes: upload.uploadLength,
      organizationId: upload.organizationId,
    };
  }

  /**
   * The caller's own upload, while they belong to its organization; anything else is a 404.
   * An expired one not yet swept is 410 (tus: the client should start again), or a 404 where
   * only "no such upload" makes sense.
   */
  private async ownUpload(
    userId: number,
    id: string,
    options: { evenExpired?: boolean; expiredAsMissing?: boolean } = {},
  ): Promise<TusUploadRow> {
    const row = idPattern.test(id) ? await findTusUploadOfUser(this.deps.db, id, userId) : null;
    const membership = row ? await this.deps.membership.findMembership(userId, row.organizationId) : null;
    if (!row || !canUseResumableUpload(row, userId, membership)) throw AppError.notFound();
    if (!options.evenExpired && row.expiresAt.getTime() <= Date.now()) {
      throw options.expiredAsMissing ? AppError.notFound() : uploadExpired();
    }
    return row;
  }

  /**
   * Stores a body from the upload's offset in parts of at most `partBytes`. Each part is written
   * whole through the organization's storage driver, then recorded with the new offset in one
   * statement that requires the offset it started from (recordTusPart): of two requests sending
   * the same range, the second to finish a part gets 409 and its part is deleted. A connection
   * that breaks off keeps every part recorded before; the part under way is discarded by the
   * driver, so the upload resumes at the last part boundary.
   */
  private async receive(upload: TusUploadRow, body: TusBody): Promise<ResumableUploadState> {
    const target = await this.deps.storage.forOrganization(upload.organizationId);
    const { driver } = target;
    let current = upload;
    try {
      await storeInPieces(
        body.stream,
        { pieceBytes: this.deps.partBytes, maxBytes: upload.uploadLength - upload.uploadOffset },
        async (piece, pieceBytes) => {
          const startOffset = current.uploadOffset;
          const nonce = randomBytes(4).toString("hex");
          const stored = await driver.put(`${upload.storagePrefix}part-${startOffset}-${nonce}`, piece, {
            maxBytes: pieceBytes,
          });
          const now = new Date();
          const recorded = await this.deps.db
            .transaction((tx) =>
              recordTusPart(
                tx,
                upload,
                { startOffset, size: stored.size, key: stored.key },
                this.expiryFrom(now),
                now,
              ),
            )
            .catch(async (error: unknown) => {
              await driver.delete(stored.key).catch(() => undefined);
              throw error;
            });
          if (!recorded) {
            await driver.delete(stored.key).catch(() => undefined);
            const latest = await findTusUploadOfUser(this.deps.db, upload.id, upload.userId);
            if (!latest) throw AppError.notFound();
            throw latest.expiresAt.getTime() <= now.getTime()
              ? uploadExpired()
              : offsetConflict(latest.uploadOffset);
          }
          current = recorded;
        },
      );
    } catch (error) {
      if (error instanceof ObjectTooLargeError) throw beyondLength(upload.uploadLength);
      if (error instanceof SourceStreamError) {
        throw AppError.badRequest(
          `The request broke off; the upload is at offset ${current.uploadOffset}: resume from there.`,
        );
      }
      if (error instanceof AppError || !target.custom) throw error;
      await target.writeRefused?.(error);
      throw uploadError(10);
    }
    return stateOf(current);
  }

  private async deleteObjects(organizationId: number, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const { driver } = await this.deps.storage.forOrganization(organizationId);
    // What fails to go now is unreferenced, and the storage sweep takes it later.
    for (const key of keys) await driver.delete(key).catch(() => undefined);
  }
}
