import { createReadStream, createWriteStream } from "node:fs";
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
import { InstallableApkError, type InstallableApkPort } from "./installable-apk-port.ts";
import { findUploadTask, updateUploadTask } from "./upload.repo.ts";
import { buildKey } from "./upload-intake.ts";

/**
 * Makes the universal APK of an AAB version: converted and signed on a local copy, the APK goes
 * to storage next to the bundle and counts against the plan's space, and the version is ready.
 * Any failure marks the task FAILURE with error 9 (8: no signing key) and, when the conversion
 * was asked for, the version failed; an automatic one leaves the bundle's version as it was.
 * The error is rethrown so the job queue keeps the reason (the retry finds the task finished).
 */
export class AabConversionWorker {
  constructor(
    private readonly deps: {
      db: Database;
      storage: StorageResolver;
      installableApk: InstallableApkPort;
      builds: BuildRecordService;
      usage: OrganizationUsageService;
      events: DomainEvents;
    },
  ) {}

  async convert(taskId: string, automatic = false): Promise<void> {
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
      const bundlePath = path.join(workDir, "app.aab");
      const apkPath = path.join(workDir, "universal.apk");
      await pipeline(await driver.read(version.fileKey), createWriteStream(bundlePath));
      const build = { organizationId: task.organizationId, applicationId: version.applicationId };
      await this.deps.installableApk.fromBundle(build, bundlePath, apkPath, workDir);
      apkKey = buildKey(task.organizationId);
      const stored = await driver.put(apkKey, createReadStream(apkPath));
      await db.transaction(async (tx) => {
        await this.deps.builds.updateVersion(
          version.id,
          { state: "ready", universalApkKey: stored.key, universalApkSize: stored.size },
          tx,
        );
        await this.deps.usage.addUsage(task.organizationId, { bytes: stored.size }, tx);
        await updateUploadTask(tx, taskId, { state: "SUCCESS" });
        // An automatic conversion's version was ready (and announced) before.
        if (!automatic)
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
      const errorCode = error instanceof InstallableApkError ? error.errorCode : 9;
      await db.transaction(async (tx) => {
        if (!automatic) await this.deps.builds.updateVersion(version.id, { state: "failed" }, tx);
        await updateUploadTask(tx, taskId, {
          state: "FAILURE",
          errorCode,
          detail: uploadErrorDetails[errorCode],
        });
      });
      throw error;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
}
