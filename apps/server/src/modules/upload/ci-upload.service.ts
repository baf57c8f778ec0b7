import type { ApplicationRecord, AppType } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { UploadSource } from "../../platform/storage/upload-source.ts";
import type { TokenService } from "../users/token.service.ts";
import type { BuildCommitService } from "./build-commit.service.ts";
import { discardStaged, inspectStoredBuild, type StagedBuild } from "./build-inspection.ts";
import { assertRoomForUpload, type PreloadTarget } from "./preload.service.ts";
import type { BuildDeps } from "./upload-deps.ts";
import { receiveUpload, type StreamedFile, storeIncomingFile } from "./upload-intake.ts";
import type { UploadSlots } from "./upload-slots.ts";

const truthy = new Set(["1", "true", "yes", "on"]);

function flag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined || value.trim() === "" ? fallback : truthy.has(value.trim().toLowerCase());
}

function optional(value: string | undefined, max: number): string | null {
  const text = value?.trim();
  return text ? text.slice(0, max) : null;
}

/**
 * CI uploads: PUT to the app's upload path with a user's API key. One call streams, reads and
 * commits the build with the same rules and transaction as the confirm call.
 */
export class CiUploadService {
  constructor(
    private readonly deps: BuildDeps & {
      commits: BuildCommitService;
      tokens: Pick<TokenService, "resolve">;
      maxUploadBytes: number;
      slots: UploadSlots;
    },
  ) {}

  /**
   * PUT /api/app_upload/{app_key}/{api_key}/: the target is known from the URL, so the text
   * fields may come before or after the file.
   */
  async upload(appKey: string, apiKey: string, source: UploadSource): Promise<ApplicationRecord> {
    const target = await this.resolveTarget(appKey, apiKey);
    return this.deps.slots.withSlot(target.userId, source.clientAddress, async () => {
      const { fields, file } = await receiveUpload(source, (incoming) =>
        storeIncomingFile(incoming, target, this.deps.maxUploadBytes),
      );
      if (!file) throw AppError.validation({ app: ["No file was submitted."] });
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
    const maxBytes = assertRoomForUpload(quota);
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
  ): Promise<ApplicationRecord> {
    const app = target.app as NonNullable<PreloadTarget["app"]>;
    let staged: StagedBuild | null = null;
    try {
      staged = await inspectStoredBuild(file, target.appTypeHint);
      const ready = staged;
      await this.deps.commits.commit(
        target.userId,
        target.organizationId,
        { kind: "version", appId: app.id },
        {
          whatsNew: fields.whats_new?.trim().slice(0, 5000),
          readyToSale: flag(fields.ready_to_sale, true),
          gitBranch: optional(fields.git_branch, 255),
          gitTag: optional(fields.git_tag, 255),
          gitCommit: optional(fields.git_commit, 255),
          uniqueAppIdChanged: flag(fields.unique_app_id_changed, false),
        },
        async () => ({ staged: ready }),
      );
    } catch (error) {
      await discardStaged(file, staged).catch(() => undefined);
      throw error;
    }
    return this.deps.applications.getRecord(target.organizationId, app.id);
  }
}
