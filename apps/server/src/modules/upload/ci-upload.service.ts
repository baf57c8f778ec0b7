import { type ApplicationRecord, type AppType, type BuildWarning, installWarnings } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { UploadSource } from "../../platform/storage/upload-source.ts";
import type { TokenService } from "../users/token.service.ts";
import type { BuildCommitService } from "./build-commit.service.ts";
import { discardStaged, inspectStoredBuild, type StagedBuild } from "./build-inspection.ts";
import { watchPlanLimits } from "./plan-limit-events.ts";
import { assertRoomForUpload, type PreloadTarget } from "./preload.service.ts";
import type { ResumableUploadService } from "./resumable-upload.service.ts";
import type { BuildDeps } from "./upload-deps.ts";
import { receiveUpload, type StreamedFile, storeIncomingFile } from "./upload-intake.ts";
import type { UploadSlots } from "./upload-slots.ts";

const truthy = new Set(["1", "true", "yes", "on"]);

function flag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined || value.trim() === "" ? fallback : truthy.has(value.trim().toLowerCase());
}

/** The first of `names` that carries text, trimmed (git output keeps its trailing newline). */
function firstOf(fields: Record<string, string>, names: string[], max: number): string | null {
  for (const name of names) {
    const text = fields[name]?.trim();
    if (text) return text.slice(0, max);
  }
  return null;
}

/**
 * The names each CI client uses for the same facts: Tarmac's own, Updraft's documentation,
 * Updraft's fastlane action (custom_git_*) and its Gradle plugin (custom_tags, custom_URL, ...).
 */
export const ciFieldNames = {
  branch: ["git_branch", "custom_branch", "custom_git_branch"],
  tag: ["git_tag", "custom_git_tag", "custom_tags"],
  commit: ["git_commit", "git_commit_hash", "custom_git_commit_hash", "custom_commit"],
  url: ["git_url", "custom_git_url", "custom_URL"],
  buildType: ["build_type"],
  bundleVersion: ["custom_bundle_version"],
};

/**
 * CI uploads: PUT to the app's upload path with a user's API key. One call streams, reads and
 * commits the build with the same rules and transaction as the confirm call.
 */
/** The app after the upload, and why phones may refuse the build (a CI log shows it). */
export interface CiUploadOutcome {
  record: ApplicationRecord;
  warnings: BuildWarning[];
}

export class CiUploadService {
  constructor(
    private readonly deps: BuildDeps & {
      commits: BuildCommitService;
      tokens: Pick<TokenService, "resolve">;
      maxUploadBytes: number;
      slots: UploadSlots;
      resumable: Pick<ResumableUploadService, "withFinishedUpload">;
    },
  ) {}

  /**
   * PUT /api/app_upload/{app_key}/{api_key}/: the target is known from the URL, so the text
   * fields may come before or after the file (or the `upload_id` of a finished resumable upload
   * of the key's user standing in for it).
   */
  async upload(appKey: string, apiKey: string, source: UploadSource): Promise<CiUploadOutcome> {
    const target = await this.resolveTarget(appKey, apiKey);
    return this.deps.slots.withSlot(target.userId, source.clientAddress, async () => {
      const form = this.deps.resumable.withFinishedUpload(target.userId, source);
      const { fields, file } = await receiveUpload(form, (incoming) =>
        storeIncomingFile(incoming, target, this.deps.maxUploadBytes),
      );
      if (!file)
        throw AppError.validation({ app: ['No file was submitted: send the build in the field "app".'] });
      return this.complete(target, file, fields);
    });
  }

  /** The app and uploader behind the URL; any mismatch is the same 404, so keys cannot be probed. */
  async resolveTarget(appKey: string, apiKey: string): Promise<PreloadTarget> {
    const token = await this.deps.tokens.resolve(apiKey);
    const app = await this.deps.builds.findAppByKey(appKey);
    if (token?.kind !== "api_key" || !token.isActive || !app) throw AppError.notFound();
    try {
      await this.deps.applications.getAccessibleApp(token.userId, app.id, "build:upload");
    } catch (error) {
      if (error instanceof AppError) throw AppError.notFound();
      throw error;
    }
    const quota = await this.deps.usage.getQuota(app.organizationId);
    if (!quota) throw AppError.notFound();
    const maxBytes = await watchPlanLimits(this.deps.events, app.organizationId, () =>
      assertRoomForUpload(quota),
    );
    return {
      userId: token.userId,
      organizationId: app.organizationId,
      app,
      appTypeHint: app.appType as AppType,
      storage: await this.deps.storage.forOrganization(app.organizationId),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
    };
  }

  async complete(
    target: PreloadTarget,
    file: StreamedFile,
    fields: Record<string, string>,
  ): Promise<CiUploadOutcome> {
    const app = target.app as NonNullable<PreloadTarget["app"]>;
    let staged: StagedBuild | null = null;
    let warnings: BuildWarning[] = [];
    try {
      staged = await inspectStoredBuild(file, target.appTypeHint);
      const ready = staged;
      warnings = installWarnings(ready.buildInfo);
      await this.deps.commits.commit(
        target.userId,
        target.organizationId,
        { kind: "version", appId: app.id },
        {
          whatsNew: fields.whats_new?.trim().slice(0, 5000),
          readyToSale: flag(fields.ready_to_sale, true),
          gitBranch: firstOf(fields, ciFieldNames.branch, 255),
          gitTag: firstOf(fields, ciFieldNames.tag, 255),
          gitCommit: firstOf(fields, ciFieldNames.commit, 255),
          gitUrl: firstOf(fields, ciFieldNames.url, 1000),
          buildType: firstOf(fields, ciFieldNames.buildType, 100),
          customBundleVersion: firstOf(fields, ciFieldNames.bundleVersion, 100),
          uniqueAppIdChanged: flag(fields.unique_app_id_changed, false),
          // An app bundle made into a universal APK: the version is answered while it processes.
          convertToApk: flag(fields.convert_to_apk, false),
        },
        async () => ({ staged: ready }),
      );
    } catch (error) {
      await discardStaged(file, staged).catch(() => undefined);
      throw error;
    }
    const record = await this.deps.applications.getRecord(target.organizationId, app.id);
    return { record, warnings };
  }
}
