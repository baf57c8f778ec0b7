import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { uploadErrorDetails } from "@tarmac/contracts";
import { type AppType, type BuildInfo, InspectError, inspect } from "@tarmac/inspector";
import { storageSource } from "./storage-source.ts";
import { uploadError } from "./upload-errors.ts";
import type { StreamedFile } from "./upload-intake.ts";

/** A stored and inspected build, not yet a version: a preload row or a CI upload in flight. */
export interface StagedBuild {
  organizationId: number;
  appType: AppType;
  fileKey: string;
  fileName: string;
  fileSize: number;
  sha256: string;
  contentType: string;
  iconKey: string | null;
  /** The inspector's reading without the icon bytes (kept as the version's metadata). */
  buildInfo: Record<string, unknown>;
}

/** The stored-file columns a staged build fills, the same in preloads and versions. */
export function storedFileColumns(staged: StagedBuild) {
  const { fileKey, fileName, fileSize, sha256, contentType, iconKey, buildInfo } = staged;
  return { fileKey, fileName, fileSize, sha256, contentType, iconKey, buildInfo };
}

const contentTypes: Record<string, string> = {
  apk: "application/vnd.android.package-archive",
  aab: "application/x-authorware-bin",
  ipa: "application/octet-stream",
  msix: "application/msix",
  msixbundle: "application/msixbundle",
  appx: "application/appx",
  appxbundle: "application/appxbundle",
  msi: "application/x-msi",
  dmg: "application/x-apple-diskimage",
  pkg: "application/octet-stream",
  zip: "application/zip",
};

/**
 * Reads the stored file through ranged reads, then stores its icon. Any file the inspector
 * cannot read is error 1, and the stored bytes are deleted on the spot.
 */
export async function inspectStoredBuild(
  file: StreamedFile,
  appTypeHint: AppType | undefined,
): Promise<StagedBuild> {
  const { driver } = file.storage;
  let info: BuildInfo;
  try {
    info = await inspect(storageSource(driver, file.key, file.size), {
      fileName: file.fileName,
      appTypeHint,
    });
  } catch (error) {
    await driver.delete(file.key);
    if (error instanceof InspectError)
      throw uploadError(1, `${uploadErrorDetails[1].slice(0, -1)}: ${error.message}`);
    throw error;
  }
  let iconKey: string | null = null;
  if (info.icon) {
    iconKey = `orgs/${file.organizationId}/icons/${randomUUID()}.png`;
    await driver.put(iconKey, Readable.from([info.icon.png]));
  }
  const { icon: _icon, ...rest } = info;
  return {
    organizationId: file.organizationId,
    appType: info.app_type,
    fileKey: file.key,
    fileName: file.fileName,
    fileSize: file.size,
    sha256: file.sha256,
    contentType: contentTypes[info.file_type] ?? "application/octet-stream",
    iconKey,
    buildInfo: rest as Record<string, unknown>,
  };
}

/** Deletes what a staged build stored; used when it is refused after inspection. */
export async function discardStaged(file: StreamedFile, staged: StagedBuild | null): Promise<void> {
  await file.storage.driver.delete(file.key);
  if (staged?.iconKey) await file.storage.driver.delete(staged.iconKey);
}

/** The facts the upload rules need, read back from the stored build info. */
export function buildFacts(buildInfo: Record<string, unknown>) {
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  return {
    version: text(buildInfo.version),
    buildNumber: text(buildInfo.build_number),
    bundleId: text(buildInfo.bundle_id),
    minOsVersion: text(buildInfo.min_os_version),
    name: text(buildInfo.name),
    fileType: text(buildInfo.file_type) ?? "",
    versionFromFileName: buildInfo.version_from_file_name === true,
  };
}
