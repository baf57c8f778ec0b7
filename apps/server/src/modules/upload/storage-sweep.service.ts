import type { Database } from "../../platform/db/client.ts";
import { splitKey } from "../../platform/storage/location-keys.ts";
import type { RoutedStorage } from "../../platform/storage/routed-storage.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import { releasePreloads } from "./preload-store.ts";
import {
  findExistingTusUploadIds,
  isTusUploadTarget,
  takeExpiredTusUploads,
} from "./resumable-upload.repo.ts";
import { giveUp } from "./resumable-upload.service.ts";
import { findKeysReferencedByPreloads, takeExpiredPreloads } from "./upload.repo.ts";

/**
 * Only the upload side's own objects are swept (builds, icons, resumable uploads' parts); logos,
 * exports and the like have their own owners.
 */
const sweptKey = /^orgs\/\d+\/(builds|icons|uploads)\//;
/** Scratch objects of a resumable upload are its own while the upload exists. */
const scratchKey = /^orgs\/\d+\/uploads\/([0-9a-f]{32})\//;
const batchSize = 500;

export interface SweepResult {
  deletedObjects: number;
  deletedTemporary: number;
}

/**
 * Storage bookkeeping: expired preloads and resumable uploads go with their files, and objects
 * that no version or preload points at, nor belong to a resumable upload still going, (left by a crash between storing and
 * committing) go once older than the grace period (in the instance's storage and every
 * organization bucket), as do unfinished writes (the local driver's temporary files, multipart
 * uploads left in S3).
 */
export class StorageSweeper {
  constructor(
    private readonly deps: {
      db: Database;
      storage: RoutedStorage;
      resolver: StorageResolver;
      builds: Pick<BuildRecordService, "referencedKeys">;
      usage: Pick<OrganizationUsageService, "addUsage">;
      graceSeconds: number;
    },
  ) {}

  async expirePreloads(now = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.deps.db.transaction(async (tx) => {
        const taken = await takeExpiredPreloads(tx, now, 100);
        await releasePreloads(this.deps.usage, tx, taken, { deleteRows: false });
        return taken;
      });
      for (const preload of expired) {
        const { driver } = await this.deps.resolver.forOrganization(preload.organizationId);
        await driver.delete(preload.fileKey);
        if (preload.iconKey) await driver.delete(preload.iconKey);
      }
      total += expired.length;
      if (expired.length < 100) return total;
    }
  }

  /**
   * Resumable uploads past their expiry (no bytes for UPLOAD_RESUMABLE_HOURS, or finished and
   * never used): the rows go first, taken by one sweeper each, then what their assemblies stored.
   */
  async expireResumableUploads(now = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.deps.db.transaction((tx) => takeExpiredTusUploads(tx, now, 100));
      for (const { upload, parts } of expired)
        await giveUp(this.deps.storage, upload, parts).catch(() => undefined);
      total += expired.length;
      if (expired.length < 100) return total;
    }
  }

  async sweep(now = new Date()): Promise<SweepResult> {
    const cutoff = new Date(now.getTime() - this.deps.graceSeconds * 1000);
    const { storage } = this.deps;
    let deletedObjects = 0;
    let batch: string[] = [];
    const flush = async () => {
      const referenced = await this.deps.builds.referencedKeys(batch);
      for (const key of await findKeysReferencedByPreloads(this.deps.db, batch)) referenced.add(key);
      const uploadOf = (key: string) => scratchKey.exec(splitKey(key).key)?.[1];
      const uploads = batch.flatMap((key) => uploadOf(key) ?? []);
      const live = await findExistingTusUploadIds(this.deps.db, [...new Set(uploads)]);
      for (const key of batch) if (live.has(uploadOf(key) ?? "")) referenced.add(key);
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await storage.delete(key);
        deletedObjects += 1;
      }
      batch = [];
    };
    for (const root of await storage.roots()) {
      try {
        for await (const object of storage.list(`${root}orgs/`)) {
          if (!sweptKey.test(splitKey(object.key).key) || object.modifiedAt > cutoff) continue;
          batch.push(object.key);
          if (batch.length >= batchSize) await flush();
        }
      } catch (error) {
        // An organization's bucket that is down must not stop the sweep of the others.
        if (root === "") throw error;
      }
    }
    if (batch.length > 0) await flush();
    const deletedTemporary =
      (await storage.deleteStaleTemporaryFiles?.(cutoff, (key) => isTusUploadTarget(this.deps.db, key))) ?? 0;
    return { deletedObjects, deletedTemporary };
  }
}
