import type { AppType, UserSummary, Version } from "@tarmac/contracts";
import type { UrlSigner } from "../../platform/storage/signed-url.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { UserSummary as Person } from "../users/user.service.ts";
import type { VersionRow } from "./application.repo.ts";
import { downloadLink, stableIconTtl } from "./download-link.ts";

export interface PresenterDeps {
  storage: StorageDriver;
  signer: UrlSigner;
  publicUrl: string;
  /** Lifetime of download links (SIGNED_URL_TTL_SECONDS). */
  downloadTtlSeconds: number;
}

/** What a version shows of its app. */
export interface VersionAppFacts {
  title: string;
  appType: number;
}

const states = new Set(["processing", "ready", "failed"]);

/** Who uploaded the version, as the API shows people, from the uploaders of a page. */
export function uploaderOf(
  row: Pick<VersionRow, "uploadedBy">,
  people: Map<number, Person>,
): UserSummary | null {
  const person = row.uploadedBy === null ? undefined : people.get(row.uploadedBy);
  return person
    ? { id: person.id, email: person.email, first_name: person.firstName, last_name: person.lastName }
    : null;
}

export class VersionPresenter {
  constructor(private readonly deps: PresenterDeps) {}

  async iconUrl(iconKey: string | null): Promise<string | null> {
    if (!iconKey) return null;
    return this.deps.storage.signedUrl(iconKey, {
      expiresInSeconds: stableIconTtl(),
      contentType: "image/png",
    });
  }

  downloadUrl(versionId: number, kind: "file" | "universal-apk" = "file"): string {
    return downloadLink(this.deps.signer, this.deps.publicUrl, versionId, kind, this.deps.downloadTtlSeconds);
  }

  async present(row: VersionRow, app: VersionAppFacts, uploader: UserSummary | null): Promise<Version> {
    return {
      id: row.id,
      title: app.title,
      app: row.applicationId,
      app_type: app.appType as AppType,
      version: row.version,
      build_version_number: row.buildNumber,
      icon: await this.iconUrl(row.iconKey),
      date: row.createdAt.toISOString(),
      state: (states.has(row.state) ? row.state : "failed") as Version["state"],
      file_name: row.fileName,
      file_size: row.fileSize,
      sha256: row.sha256,
      content_type: row.contentType,
      bundle_id: row.bundleId,
      min_os_version: row.minOsVersion,
      whats_new: row.whatsNew,
      comment: row.comment,
      ready_to_sale: row.readyToSale,
      git_branch: row.gitBranch,
      git_tag: row.gitTag,
      git_commit: row.gitCommit,
      git_url: row.gitUrl,
      build_type: row.buildType,
      custom_bundle_version: row.customBundleVersion,
      uploaded_by: uploader,
      download_count: row.downloadCount,
      install_count: row.installCount,
      download_url: this.downloadUrl(row.id),
      has_universal_apk: Boolean(row.universalApkKey),
      metadata: (row.buildInfo ?? {}) as Record<string, unknown>,
    };
  }
}
