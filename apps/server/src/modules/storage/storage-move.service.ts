import { createHash } from "node:crypto";
import type { StorageOverview } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import { locationOfKey, qualifiedKey, splitKey } from "../../platform/storage/location-keys.ts";
import type { RoutedStorage } from "../../platform/storage/routed-storage.ts";
import type { VersionFile, VersionFiles } from "../application/version-files.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { StorageJobs } from "./storage.jobs.ts";
import { can } from "./storage.policy.ts";
import {
  addMoveProgress,
  findActiveLocation,
  findLatestMove,
  findMove,
  insertMove,
  type MoveRow,
  updateMove,
} from "./storage.repo.ts";

const pageSize = 200;

export interface StorageMoveDeps {
  db: Database;
  storage: RoutedStorage;
  versionFiles: Pick<VersionFiles, "page" | "replaceKey" | "countElsewhere">;
  membership: MembershipService;
  jobs: JobQueue;
  storageJobs: () => StorageJobs;
}

async function sha256Of(stream: NodeJS.ReadableStream): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * "Move existing builds": copies every file of the organization's builds to where new files go,
 * verifies the copy's SHA-256 by reading it back, points the build at it, then deletes the old
 * copy. A file is always readable from one place or the other; a retried run skips what moved.
 */
export class StorageMoveService {
  constructor(private readonly deps: StorageMoveDeps) {}

  async overview(actorUserId: number, organizationId: number): Promise<StorageOverview> {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, "storage:read")) throw AppError.forbidden();
    const active = await findActiveLocation(this.deps.db, organizationId);
    const filesElsewhere = await this.deps.versionFiles.countElsewhere(organizationId, active?.id ?? null);
    const move = await findLatestMove(this.deps.db, organizationId);
    return {
      kind: (active?.kind ?? "instance") as StorageOverview["kind"],
      files_elsewhere: filesElsewhere,
      move: move && showMove(move),
    };
  }

  async start(actorUserId: number, organizationId: number): Promise<StorageOverview> {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, "storage:move")) throw AppError.forbidden();
    const target = await this.targetOf(organizationId);
    await this.deps.db.transaction(async (tx) => {
      const move = await insertMove(tx, { organizationId, targetLocationId: target, startedBy: actorUserId });
      if (!move)
        throw new AppError("move_running", 409, "A move of this organization's files is already under way.");
      await this.deps.jobs.send(this.deps.storageJobs().move, { moveId: move.id }, { tx });
    });
    return this.overview(actorUserId, organizationId);
  }

  private async targetOf(organizationId: number): Promise<number | null> {
    return (await findActiveLocation(this.deps.db, organizationId))?.id ?? null;
  }

  private async eachFile(organizationId: number, visit: (file: VersionFile) => Promise<void>) {
    let after = 0;
    for (;;) {
      const files = await this.deps.versionFiles.page(organizationId, after, pageSize);
      if (files.length === 0) return;
      for (const file of files) await visit(file);
      after = files.at(-1)?.versionId ?? after;
    }
  }

  /** The job: runs a queued move to its end (or to the first file that will not copy). */
  async run(moveId: number): Promise<void> {
    const move = await findMove(this.deps.db, moveId);
    if (!move || move.state === "done" || move.state === "failed") return;
    const target = move.targetLocationId;
    let totalFiles = 0;
    let totalBytes = 0;
    await this.eachFile(move.organizationId, async (file) => {
      if (locationOfKey(file.key) === target) return;
      totalFiles += 1;
      totalBytes += file.size;
    });
    await updateMove(this.deps.db, moveId, { state: "running", totalFiles, totalBytes });
    try {
      await this.eachFile(move.organizationId, async (file) => {
        if (locationOfKey(file.key) === target) return;
        const size = await this.moveFile(file, target);
        await addMoveProgress(this.deps.db, moveId, size);
      });
      await updateMove(this.deps.db, moveId, { state: "done", finishedAt: new Date() });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await updateMove(this.deps.db, moveId, { state: "failed", error: message, finishedAt: new Date() });
    }
  }

  private async moveFile(file: VersionFile, target: number | null): Promise<number> {
    const { storage } = this.deps;
    const inPlace = splitKey(file.key).key;
    const newKey = target === null ? inPlace : qualifiedKey(target, inPlace);
    const stored = await storage.put(newKey, await storage.read(file.key));
    const copied = await sha256Of(await storage.read(stored.key));
    const expected = file.sha256 ?? stored.sha256;
    if (copied !== expected || stored.sha256 !== expected) {
      await storage.delete(stored.key);
      throw new Error(`the copy of ${file.key} does not match its SHA-256; nothing was switched`);
    }
    if (await this.deps.versionFiles.replaceKey(file, stored.key)) await storage.delete(file.key);
    else await storage.delete(stored.key);
    return stored.size;
  }
}

function showMove(move: MoveRow): NonNullable<StorageOverview["move"]> {
  return {
    id: move.id,
    state: move.state as NonNullable<StorageOverview["move"]>["state"],
    total_files: move.totalFiles,
    moved_files: move.movedFiles,
    total_bytes: move.totalBytes,
    moved_bytes: move.movedBytes,
    error: move.error,
    started_at: move.startedAt.toISOString(),
    finished_at: move.finishedAt ? move.finishedAt.toISOString() : null,
  };
}
