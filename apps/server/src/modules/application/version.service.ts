/** Reading and editing single versions, and handing out their download links. */
import type { UpdateVersionInput, Version } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { AppLogService } from "./app-log.service.ts";
import type { ApplicationService } from "./application.service.ts";
import type { FileKind } from "./download-link.ts";
import { incrementVersionCounter } from "./release.repo.ts";
import type { VersionPresenter } from "./version.presenter.ts";
import { findVersion, updateVersion } from "./version.repo.ts";

export interface DownloadableFile {
  key: string;
  fileName: string;
  contentType: string;
}

export class VersionService {
  constructor(
    private readonly deps: {
      db: Database;
      core: ApplicationService;
      appLogs: AppLogService;
      presenter: VersionPresenter;
    },
  ) {}

  async get(userId: number, versionId: number): Promise<Version> {
    const { version, app } = await this.deps.core.getAccessibleVersion(userId, versionId, "app:read");
    return (await this.deps.core.presentVersions([version], app))[0] as Version;
  }

  /** Serves both /api/versions/{id}/ and /api/releases/{id}/ (the latter sends fewer fields). */
  async update(userId: number, versionId: number, input: UpdateVersionInput): Promise<Version> {
    const { version, app } = await this.deps.core.getAccessibleVersion(userId, versionId, "build:update");
    return this.deps.db.transaction(async (tx) => {
      const updated = await updateVersion(tx, app.organizationId, version.id, {
        ...(input.whats_new !== undefined ? { whatsNew: input.whats_new } : {}),
        ...(input.comment !== undefined ? { comment: input.comment } : {}),
        ...(input.ready_to_sale !== undefined ? { readyToSale: input.ready_to_sale } : {}),
      });
      if (!updated) throw AppError.notFound();
      await this.deps.appLogs.record(
        {
          organizationId: app.organizationId,
          applicationId: app.id,
          userId,
          versionId: version.id,
          action: "version.updated",
          detail: {
            fields: Object.keys(input).filter((key) => input[key as keyof UpdateVersionInput] !== undefined),
          },
        },
        tx,
      );
      return (await this.deps.core.presentVersions([updated], app, tx))[0] as Version;
    });
  }

  /** A fresh signed link for an authenticated download. */
  async getDownloadUrl(userId: number, versionId: number, kind: FileKind): Promise<string> {
    const { version } = await this.deps.core.getAccessibleVersion(userId, versionId, "build:download");
    if (kind === "universal-apk" && !version.universalApkKey) throw AppError.notFound();
    return this.deps.presenter.downloadUrl(version.id, kind);
  }

  /** What a signed link serves; the signature was checked by the caller. */
  async findDownloadableFile(versionId: number, kind: FileKind): Promise<DownloadableFile | null> {
    const version = await findVersion(this.deps.db, versionId);
    if (!version) return null;
    if (kind === "file") {
      return { key: version.fileKey, fileName: version.fileName, contentType: version.contentType };
    }
    if (!version.universalApkKey) return null;
    return {
      key: version.universalApkKey,
      fileName: `${version.fileName.replace(/\.(aab|apk)$/i, "")}.apk`,
      contentType: "application/vnd.android.package-archive",
    };
  }

  async countDownload(versionId: number): Promise<void> {
    await incrementVersionCounter(this.deps.db, versionId, "download");
  }
}
