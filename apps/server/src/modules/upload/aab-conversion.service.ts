import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { uploadErrorDetails } from "@tarmac/contracts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import { type AabConverterConfig, buildUniversalApks } from "./aab-converter.ts";
import { openZipEntry } from "./apks-entry.ts";
import { findUploadTask, updateUploadTask } from "./upload.repo.ts";
import { buildKey } from "./upload-intake.ts";

/**
 * Makes the universal APK of an AAB version: bundletool runs on a local copy, the APK goes to
 * storage next to the bundle and counts against the plan's space, and the version is ready.
 * Any failure marks the task FAILURE with error 9 and the version failed, then is rethrown so
 * the job queue keeps the reason (the retry finds the task finished and stops).
 */
export class AabConversionWorker {
  constructor(
    private readonly deps: {
      db: Database;
      storage: StorageResolver;
      converter: AabConverterConfig | null;
      builds: BuildRecordService;
      usage: OrganizationUsageService;
      events: DomainEvents;
    },
  ) {}

  async convert(taskId: string): Promise<void> {
    const { db } = this.deps;
    const task = await findUploadTask(db, taskId);
    // Finished tasks stay finished: a retried job must not convert twice.
    if (!task || task.state === "SUCCESS" || task.state === "FAILURE" || !task.versionId) return;
    const version = await this.deps.builds.findVersion(task.organizationId, task.versionId);
    if (!version) {
      await updateUploadTask(db, taskId, {
        state: "FAILURE",
        errorCode: 9,
        detail: "The version was deleted.",
      });
      return;
    }
    await updateUploadTask(db, taskId, { state: "STARTED" });
    const { driver } = await this.deps.storage.forOrganization(task.organizationId);
    const workDir = await mkdtemp(path.join(os.tmpdir(), "tarmac-aab-"));
    let apkKey: string | null = null;
    try {
      if (!this.deps.converter) throw new Error("no AAB converter is configured");
      const bundlePath = path.join(workDir, "app.aab");
      await pipeline(await driver.read(version.fileKey), createWriteStream(bundlePath));
      const apks = await buildUniversalApks(this.deps.converter, bundlePath, workDir);
      const entry = await openZipEntry(apks, "universal.apk");
      apkKey = buildKey(task.organizationId);
      const stored = await driver.put(apkKey, entry.stream);
      await db.transaction(async (tx) => {
        await this.deps.builds.updateVersion(
          version.id,
          { state: "ready", universalApkKey: stored.key, universalApkSize: stored.size },
          tx,
        );
        await this.deps.usage.addUsage(task.organizationId, { bytes: stored.size }, tx);
        await updateUploadTask(tx, taskId, { state: "SUCCESS" });
        await this.deps.events.publish(
          {
            type: "build.ready",
            organizationId: task.organizationId,
            applicationId: version.applicationId,
            versionId: version.id,
          },
          { tx },
        );
      });
    } catch (error) {
      if (apkKey) await driver.delete(apkKey).catch(() => undefined);
      await db.transaction(async (tx) => {
        await this.deps.builds.updateVersion(version.id, { state: "failed" }, tx);
        await updateUploadTask(tx, taskId, {
          state: "FAILURE",
          errorCode: 9,
          detail: uploadErrorDetails[9],
        });
      });
      throw error;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
}
