import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { type AndroidBuildSigning, uploadErrorDetails } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobDefinition } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { FileDeletion } from "../application/application.jobs.ts";
import type { ApplicationService } from "../application/application.service.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import { InstallableApkError } from "../upload/installable-apk-port.ts";
import { uploadError } from "../upload/upload-errors.ts";
import { buildKey } from "../upload/upload-intake.ts";
import type { UploadTaskService } from "../upload/upload-task.service.ts";
import { canSign } from "./android-signing.policy.ts";
import type { ApkSigningService } from "./apk-signing.service.ts";
import type { SigningKeyChain } from "./signing-key-chain.ts";

/** The task kind of POST /api/app-resign-aab-build/, reported at /api/upload-task-result/{id}/. */
export const signBuildTaskKind = "android.sign-build";
const androidAppType = 0;

export interface BuildSigningDeps {
  db: Database;
  applications: ApplicationService;
  builds: BuildRecordService;
  usage: OrganizationUsageService;
  storage: StorageResolver;
  jobs: JobQueue;
  tasks: UploadTaskService;
  apks: ApkSigningService;
  keys: SigningKeyChain;
  deleteFiles: FileDeletion;
  signJob: JobDefinition;
}

/**
 * "Sign" on an Android version: a task converts an AAB (or takes an uploaded APK) and signs it
 * with the app's key; the signed APK becomes the version's installable file, the upload stays.
 */
export class BuildSigningService {
  constructor(private readonly deps: BuildSigningDeps) {}

  private async versionFor(userId: number, buildId: number) {
    const found = await this.deps.applications.getAccessibleVersion(userId, buildId, "app:read");
    if (!canSign(found.member.role, "build:sign", found.access)) throw AppError.forbidden();
    if (found.app.appType !== androidAppType) {
      throw AppError.validation({ build_id: ["Only Android builds are signed here."] });
    }
    return found;
  }

  async start(userId: number, buildId: number): Promise<{ task_id: string }> {
    const { app, version } = await this.versionFor(userId, buildId);
    const kind = fileKindOf(version.fileName);
    if (!kind) throw AppError.validation({ build_id: ["Only .apk and .aab builds can be signed."] });
    if (version.state === "processing") {
      throw AppError.validation({
        build_id: ["The build is still being processed; try again when it is ready."],
      });
    }
    if (kind === "aab" && !this.deps.apks.available) throw uploadError(8);
    if (!this.deps.keys.alwaysHasKey) {
      const { source } = await this.deps.keys.currentSource(app.organizationId, app.id);
      if (source === null) throw uploadError(8);
    }
    const running = await this.deps.tasks.findLatest(app.organizationId, version.id, signBuildTaskKind);
    if (running && (running.state === "PENDING" || running.state === "STARTED"))
      return { task_id: running.id };
    const taskId = randomUUID();
    await this.deps.db.transaction(async (tx) => {
      await this.deps.tasks.create(
        {
          id: taskId,
          organizationId: app.organizationId,
          userId,
          applicationId: app.id,
          versionId: version.id,
          kind: signBuildTaskKind,
        },
        tx,
      );
      await this.deps.jobs.send(this.deps.signJob, { taskId }, { tx });
    });
    return { task_id: taskId };
  }

  async get(userId: number, buildId: number): Promise<AndroidBuildSigning> {
    const { app, version } = await this.versionFor(userId, buildId);
    const task = await this.deps.tasks.findLatest(app.organizationId, version.id, signBuildTaskKind);
    const { source } = await this.deps.keys.currentSource(app.organizationId, app.id);
    return {
      build_id: version.id,
      task_id: task?.id ?? null,
      state: (task?.state ?? null) as AndroidBuildSigning["state"],
      error_code: task?.errorCode ?? null,
      detail: task?.detail ?? "",
      has_universal_apk: Boolean(version.universalApkKey),
      effective_source: source,
      internal_testing_only: source === "generated",
    };
  }

  /** The job: a finished task stays finished, so a retried job does not sign twice. */
  async run(taskId: string): Promise<void> {
    const task = await this.deps.tasks.find(taskId);
    if (!task || task.state === "SUCCESS" || task.state === "FAILURE" || !task.versionId) return;
    const version = await this.deps.builds.findVersion(task.organizationId, task.versionId);
    const kind = version ? fileKindOf(version.fileName) : null;
    if (!version || !kind) {
      await this.deps.tasks.update(taskId, {
        state: "FAILURE",
        errorCode: 9,
        detail: "The version was deleted.",
      });
      return;
    }
    await this.deps.tasks.update(taskId, { state: "STARTED" });
    const { driver } = await this.deps.storage.forOrganization(task.organizationId);
    const workDir = await mkdtemp(path.join(os.tmpdir(), "tarmac-sign-"));
    let apkKey: string | null = null;
    try {
      const input = path.join(workDir, `build.${kind}`);
      const signed = path.join(workDir, "signed.apk");
      await pipeline(await driver.read(version.fileKey), createWriteStream(input));
      const build = { organizationId: task.organizationId, applicationId: version.applicationId };
      if (kind === "aab") await this.deps.apks.fromBundle(build, input, signed, workDir);
      else await this.deps.apks.signApk(build, input, signed);
      apkKey = buildKey(task.organizationId);
      const stored = await driver.put(apkKey, createReadStream(signed));
      await this.deps.db.transaction(async (tx) => {
        // The version may have changed meanwhile (a file exchange): read it again under lock.
        const current = await this.deps.builds.lockVersion(version.id, tx);
        if (!current || current.fileKey !== version.fileKey)
          throw new Error("the build's file changed while it was signed");
        await this.deps.builds.updateVersion(
          version.id,
          { universalApkKey: stored.key, universalApkSize: stored.size },
          tx,
        );
        await this.deps.usage.addUsage(
          task.organizationId,
          { bytes: stored.size - current.universalApkSize },
          tx,
        );
        if (current.universalApkKey) await this.deps.deleteFiles([current.universalApkKey], tx);
        await this.deps.tasks.update(taskId, { state: "SUCCESS", errorCode: null, detail: "" }, tx);
      });
    } catch (error) {
      if (apkKey) await driver.delete(apkKey).catch(() => undefined);
      const code = error instanceof InstallableApkError ? error.errorCode : 9;
      const detail =
        error instanceof InstallableApkError
          ? `${uploadErrorDetails[code]} (${error.message})`
          : uploadErrorDetails[code];
      await this.deps.tasks.update(taskId, { state: "FAILURE", errorCode: code, detail });
      if (!(error instanceof InstallableApkError)) throw error;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
}

function fileKindOf(fileName: string): "apk" | "aab" | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".apk")) return "apk";
  if (lower.endsWith(".aab")) return "aab";
  return null;
}
