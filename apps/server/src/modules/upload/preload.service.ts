/**
 * Owns the upload side of builds: streaming a file to storage, reading it, and turning it into
 * a preload the user confirms (or, for CI, straight into a version). Reading, changing and
 * deleting apps and versions belongs to the application module.
 */
import { randomBytes } from "node:crypto";
import { type AppType, installWarnings, type PreloadResult } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { IncomingFile, UploadSource } from "../../platform/storage/upload-source.ts";
import { canOnApp } from "../application/application.policy.ts";
import type { ApplicationRow } from "../application/application.service.ts";
import type { Quota } from "../organization/organization-usage.service.ts";
import { checkBuildLimits } from "./build-commit.service.ts";
import {
  buildFacts,
  discardStaged,
  inspectStoredBuild,
  type StagedBuild,
  storedFileColumns,
} from "./build-inspection.ts";
import { watchPlanLimits } from "./plan-limit-events.ts";
import { releasePreloads, reservePreload } from "./preload-store.ts";
import type { ResumableUploadService } from "./resumable-upload.service.ts";
import { countPendingPreloads, findPreloadOfUser } from "./upload.repo.ts";
import { type BuildDeps, preloadLifetimeMs } from "./upload-deps.ts";
import { uploadError } from "./upload-errors.ts";
import { receiveUpload, type StreamedFile, storeIncomingFile, type UploadTarget } from "./upload-intake.ts";
import type { UploadSlots } from "./upload-slots.ts";

const bytesPerMb = 1024 * 1024;

export interface PreloadTarget extends UploadTarget {
  userId: number;
  app: ApplicationRow | null;
  appTypeHint: AppType | undefined;
}

/** A form's id field (the organization, the app); null when it is left out and may be. */
export function positiveId(fields: Record<string, string>, name: string, required: boolean): number | null {
  const raw = fields[name]?.trim();
  if (!raw) {
    if (required) throw AppError.validation({ [name]: ["This field is required."] });
    return null;
  }
  if (!/^\d{1,15}$/.test(raw) || Number(raw) <= 0) {
    throw AppError.validation({ [name]: ["A valid integer is required."] });
  }
  return Number(raw);
}

function parseAppType(raw: string | undefined): AppType | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (![0, 1, 2, 3].includes(value))
    throw AppError.validation({ app_type: ['"app_type" must be 0, 1, 2 or 3.'] });
  return value as AppType;
}

/**
 * Bytes the plan still allows for one more file: stored builds and uploads waiting for
 * confirmation plus this one must stay below the limit.
 */
export function remainingSpace(quota: Quota): number | undefined {
  if (quota.spaceLimitMb <= 0) return undefined;
  return quota.spaceLimitMb * bytesPerMb - quota.spaceUsedBytes - quota.pendingUploadBytes - 1;
}

/** Refuses before a byte is stored when the plan has no room (6) or no build slot (7) left. */
export function assertRoomForUpload(quota: Quota, declaredBytes = 0): number | undefined {
  const maxBytes = remainingSpace(quota);
  if (maxBytes !== undefined && (maxBytes < 0 || declaredBytes > maxBytes)) throw uploadError(6);
  if (quota.buildLimit > 0 && quota.buildsCount + quota.pendingUploads >= quota.buildLimit)
    throw uploadError(7);
  return maxBytes;
}

export const tooManyPendingUploads = (limit: number) =>
  new AppError(
    "pending_uploads_limit",
    400,
    `You have ${limit} uploads waiting to be added. Add or discard them first (unconfirmed uploads are removed after 24 hours).`,
    undefined,
    "pending_uploads_limit",
  );

export function opaquePath(): string {
  return randomBytes(24).toString("base64url");
}

export class PreloadService {
  constructor(
    private readonly deps: BuildDeps & {
      maxUploadBytes: number;
      pendingPerUser: number;
      slots: UploadSlots;
      resumable: Pick<ResumableUploadService, "withFinishedUpload">;
    },
  ) {}

  /**
   * POST /api/applicationadd/?preload=1: stores the file, reads it and keeps it for 24 hours as
   * a preload. Where the file goes and how big it may be are decided when it starts, from the
   * fields before it (organization, app, app_type). A finished resumable upload named in
   * `upload_id` may stand in for the file.
   */
  /** `appId`: the app named in the URL (?app=, Updraft's form), instead of the form's `app` field. */
  async preload(userId: number, source: UploadSource, appId?: number): Promise<PreloadResult> {
    return this.deps.slots.withSlot(userId, source.clientAddress, () => this.receive(userId, source, appId));
  }

  private async receive(userId: number, source: UploadSource, appId?: number): Promise<PreloadResult> {
    let target: PreloadTarget | null = null;
    const form = this.deps.resumable.withFinishedUpload(userId, source);
    const { file } = await receiveUpload(form, async (incoming: IncomingFile, fields) => {
      target = await this.resolveTarget(userId, fields, appId);
      return storeIncomingFile(incoming, target, this.deps.maxUploadBytes);
    });
    if (!file || !target) {
      throw AppError.validation({
        file: ['No file was submitted: send the build in the field "file" (or "app").'],
      });
    }
    return this.completePreload(target, file);
  }

  /**
   * Runs when the file part starts: who may upload where, and how many bytes the plan leaves.
   * The organization (and app) fields therefore have to come before the file in the form.
   */
  async resolveTarget(
    userId: number,
    fields: Record<string, string>,
    appFromUrl?: number,
  ): Promise<PreloadTarget> {
    const appId = appFromUrl ?? positiveId(fields, "app", false);
    // An upload for an app may leave the organization out: the app decides it.
    const accessible =
      appId !== null ? await this.deps.applications.getAccessibleApp(userId, appId, "build:upload") : null;
    const organizationId =
      positiveId(fields, "organization", accessible === null) ?? (accessible?.app.organizationId as number);
    const member = await this.deps.membership.getMembership(userId, organizationId);
    let app: ApplicationRow | null = null;
    if (accessible) {
      if (accessible.app.organizationId !== organizationId) throw AppError.notFound();
      app = accessible.app;
    } else if (!canOnApp(member.role, "app:create", { visible: false })) {
      throw AppError.forbidden();
    }
    const quota = await this.deps.usage.getQuota(organizationId);
    if (!quota) throw AppError.notFound();
    const maxBytes = await watchPlanLimits(this.deps.events, organizationId, () =>
      assertRoomForUpload(quota),
    );
    const pending = await countPendingPreloads(this.deps.db, organizationId, userId);
    if (pending >= this.deps.pendingPerUser) throw tooManyPendingUploads(this.deps.pendingPerUser);
    return {
      userId,
      organizationId,
      app,
      appTypeHint: app ? (app.appType as AppType) : parseAppType(fields.app_type),
      storage: await this.deps.storage.forOrganization(organizationId),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
    };
  }

  /** Drops an upload the person will not add after all: its space is free again at once. */
  async discard(userId: number, path: string): Promise<void> {
    const taken = await this.deps.db.transaction(async (tx) => {
      const preload = await findPreloadOfUser(tx, path, userId);
      if (!preload) throw AppError.notFound();
      await releasePreloads(this.deps.usage, tx, [preload]);
      return preload;
    });
    const { driver } = await this.deps.storage.forOrganization(taken.organizationId);
    await driver.delete(taken.fileKey);
    if (taken.iconKey) await driver.delete(taken.iconKey);
  }

  /** Reads the stored file and keeps it for 24 hours as a preload; refusals delete it. */
  async completePreload(target: PreloadTarget, file: StreamedFile): Promise<PreloadResult> {
    let staged: StagedBuild | null = null;
    try {
      staged = await inspectStoredBuild(file, target.appTypeHint);
      if (target.app && staged.appType !== target.app.appType) throw uploadError(5);
      return await this.savePreload(target, staged);
    } catch (error) {
      await discardStaged(file, staged).catch(() => undefined);
      throw error;
    }
  }

  private async savePreload(target: PreloadTarget, staged: StagedBuild): Promise<PreloadResult> {
    const facts = buildFacts(staged.buildInfo);
    const version = facts.version ?? "";
    const buildNumber = facts.buildNumber ?? "0";
    const { app } = target;
    const bundleChanged = Boolean(app?.bundleId && facts.bundleId && app.bundleId !== facts.bundleId);
    const row = await watchPlanLimits(this.deps.events, target.organizationId, () =>
      this.deps.db.transaction(async (tx) => {
        // Other uploads may have finished while this one streamed: check again under the lock.
        await this.deps.membership.lockOrganization(target.organizationId, tx);
        const quota = await this.deps.usage.getQuota(target.organizationId, tx);
        if (!quota) throw AppError.notFound();
        checkBuildLimits(quota, staged.fileSize);
        if (
          (await countPendingPreloads(tx, target.organizationId, target.userId)) >= this.deps.pendingPerUser
        ) {
          throw tooManyPendingUploads(this.deps.pendingPerUser);
        }
        return reservePreload(this.deps.usage, tx, {
          path: opaquePath(),
          organizationId: target.organizationId,
          userId: target.userId,
          applicationId: app?.id ?? null,
          appType: staged.appType,
          ...storedFileColumns(staged),
          expiresAt: new Date(Date.now() + preloadLifetimeMs),
        });
      }),
    );
    return {
      preload_path: row.path,
      version,
      build_version_number: buildNumber,
      version_exist: app ? await this.deps.builds.versionExists(app.id, version, buildNumber) : false,
      unique_app_id_changed: bundleChanged,
      unique_app_id_new: bundleChanged ? facts.bundleId : null,
      app_type: staged.appType,
      name: facts.name,
      title: app?.title ?? facts.name,
      icon: await this.deps.versions.iconUrl(staged.iconKey),
      file_name: staged.fileName,
      file_size: staged.fileSize,
      sha256: staged.sha256,
      bundle_id: facts.bundleId,
      min_os_version: facts.minOsVersion,
      expires_at: row.expiresAt.toISOString(),
      warnings: installWarnings(staged.buildInfo),
    };
  }
}
