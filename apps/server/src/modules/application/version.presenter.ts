import type { AppType, UserSummary, Version } from "@tarmac/contracts";
import { extendJsonObject } from "../../platform/db/rendered-json.ts";
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

/** What a build's record takes from elsewhere than its own row (see render). */
type AddedField = "title" | "app_type" | "icon" | "uploaded_by" | "download_url";

/** What presenting a build reads of its row: lists select these columns only. */
export type ShownVersion = Pick<VersionRow, "id" | "version" | "iconKey" | "uploadedBy" | "recordJson">;

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

  /**
   * The build's record as JSON text: its own fields as the database rendered them
   * (versions.record_json), with what comes from its app, its uploader and the moment (signed
   * links), appended without parsing the rendered part. `icon` is the signed icon link in it.
   */
  async render(
    row: ShownVersion,
    app: VersionAppFacts,
    uploader: UserSummary | null,
  ): Promise<{ json: string; icon: string | null }> {
    const added: Pick<Version, AddedField> = {
      title: app.title,
      app_type: app.appType as AppType,
      icon: await this.iconUrl(row.iconKey),
      uploaded_by: uploader,
      download_url: this.downloadUrl(row.id),
    };
    return { json: extendJsonObject(row.recordJson, added), icon: added.icon };
  }

  async present(row: ShownVersion, app: VersionAppFacts, uploader: UserSummary | null): Promise<Version> {
    return JSON.parse((await this.render(row, app, uploader)).json) as Version;
  }
}
