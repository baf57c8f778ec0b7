/**
 * Resumable uploads (tus 1.0.0): a build's bytes arrive over any number of requests, to any of
 * the web processes, and are then finished by a preload or CI upload naming the upload in
 * `upload_id`. Each request's body is stored in parts through the organization's storage driver;
 * the database row says how far the upload got, so the offset a client resumes from is the one
 * every process agrees on.
 */
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import type { StorageDriver, StoredObject } from "../../platform/storage/storage-driver.ts";
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
  type TusUploadPartRow,
  type TusUploadRow,
  takeTusUpload,
} from "./resumable-upload.repo.ts";
import {
  assemblyOf,
  beyondLength,
  offsetConflict,
  pieceOf,
  ResumableWrites,
  uploadExpired,
} from "./resumable-writes.ts";
import { RunningHashes } from "./running-hashes.ts";
import { canStartResumableUpload, canUseResumableUpload } from "./upload.policy.ts";
import { uploadError } from "./upload-errors.ts";
import { buildKey, checkFileName, fileTooLarge } from "./upload-intake.ts";
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
  private readonly hashes = new RunningHashes();
  private readonly writes: ResumableWrites;

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
  ) {
    this.writes = new ResumableWrites({
      db: deps.db,
      storage: deps.storage,
      hashes: this.hashes,
      partBytes: deps.partBytes,
      expiryFrom: (now) => this.expiryFrom(now),
    });
  }

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
    // The bytes are assembled where the organization keeps files now, into the build's own key.
    const target = await this.deps.storage.forOrganization(organizationId);
    const assembly = await target.driver
      .startAssembly(buildKey(organizationId), `orgs/${organizationId}/uploads/${id}/`)
      .catch(async (error: unknown) => {
        if (!target.custom) throw error;
        await target.writeRefused?.(error);
        throw uploadError(10);
      });
    const row = await insertTusUpload(this.deps.db, {
      id,
      organizationId,
      userId,
      fileName,
      metadata: input.rawMetadata,
      uploadLength: input.length,
      storagePrefix: assembly.scratch,
      targetKey: assembly.key,
      assemblyHandle: assembly.handle,
      expiresAt: this.expiryFrom(now),
    }).catch(async (error: unknown) => {
      await target.driver.abortAssembly(assembly, []).catch(() => undefined);
      throw error;
    });
    if (!body) return stateOf(row);
    return this.deps.slots.withSlot(userId, clientAddress, async () =>
      stateOf(await this.writes.receive(row, body)),
    );
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
    return this.deps.slots.withSlot(userId, clientAddress, async () =>
      stateOf(await this.writes.receive(upload, body)),
    );
  }

  /** DELETE /api/uploads/{id}/ (termination): the row at once, then its parts. */
  async terminate(userId: number, id: string): Promise<void> {
    const upload = await this.ownUpload(userId, id, { evenExpired: true });
    const taken = await this.deps.db.transaction((tx) => takeTusUpload(tx, upload));
    if (!taken) throw AppError.notFound();
    this.hashes.forget(upload.id);
    const { driver } = await this.deps.storage.forOrganization(upload.organizationId);
    // What fails to go now is referenced by nothing, and the storage sweep takes it later.
    await giveUp(driver, taken.upload, taken.parts).catch(() => undefined);
  }

  /**
   * The form of a preload or CI upload, where a field `upload_id` naming a finished resumable
   * upload of the caller stands in for the file. Its bytes then go the way a streamed file goes
   * (checks, inspection), except that they are in storage already: they become the build's
   * object without a copy, and the resumable upload is gone from then on, whatever the answer.
   * A finish refused before that (another organization, no permission, no room) leaves it to be
   * finished again.
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
        const file = await onFile(this.finishedFile(upload), read.fields);
        return { fields: read.fields, file };
      },
    };
  }

  /** A finished upload as the file of a form: `assemble` makes it the object it becomes. */
  private finishedFile(upload: TusUploadRow): IncomingFile {
    return {
      fieldName: "upload_id",
      fileName: upload.fileName,
      contentType: "application/octet-stream",
      body: Readable.from([]),
      truncated: () => false,
      declaredRequestBytes: upload.uploadLength,
      organizationId: upload.organizationId,
      assemble: () => this.assemble(upload),
    };
  }

  /**
   * Takes the upload (its row deleted under a lock, so two finishes racing cannot both use it)
   * and has the storage assemble its pieces into the build's object. The SHA-256 comes from the
   * process that received every byte; any other reads the object once to compute it.
   */
  private async assemble(upload: TusUploadRow): Promise<StoredObject> {
    const found = await this.deps.db.transaction((tx) => takeTusUpload(tx, upload));
    if (!found) throw AppError.notFound();
    const { driver } = await this.deps.storage.forOrganization(upload.organizationId);
    const assembly = assemblyOf(found.upload);
    let expected = 0;
    for (const part of found.parts) {
      if (part.startOffset !== expected)
        throw new Error(`resumable upload ${upload.id} misses bytes at ${expected}`);
      expected += part.size;
    }
    if (expected !== upload.uploadLength)
      throw new Error(`resumable upload ${upload.id} has ${expected} bytes`);
    try {
      await driver.completeAssembly(assembly, found.parts.map(pieceOf));
    } catch (error) {
      this.hashes.forget(upload.id);
      await giveUp(driver, found.upload, found.parts).catch(() => undefined);
      throw error;
    }
    try {
      const sha256 = this.hashes.take(upload.id, upload.uploadLength) ?? (await hashOf(driver, assembly.key));
      return { key: assembly.key, size: upload.uploadLength, sha256 };
    } catch (error) {
      await driver.delete(assembly.key).catch(() => undefined);
      throw error;
    }
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
    // An upload begun before assemblies (its parts separate objects) cannot be finished: it
    // reads as expired until the sweep takes it.
    const expired = row.expiresAt.getTime() <= Date.now() || row.targetKey === null;
    if (!options.evenExpired && expired) {
      throw options.expiredAsMissing ? AppError.notFound() : uploadExpired();
    }
    return row;
  }
}

/** Gives up an upload's assembly, or deletes the parts of one begun before assemblies. */
export async function giveUp(
  storage: Pick<StorageDriver, "abortAssembly" | "delete">,
  upload: TusUploadRow,
  parts: TusUploadPartRow[],
): Promise<void> {
  if (upload.targetKey) {
    await storage.abortAssembly(assemblyOf(upload), parts.map(pieceOf));
    return;
  }
  for (const part of parts) if (part.key) await storage.delete(part.key);
}

/** The SHA-256 of a stored object, read once. */
async function hashOf(driver: StorageDriver, key: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of await driver.read(key)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
