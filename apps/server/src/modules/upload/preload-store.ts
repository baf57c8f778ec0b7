/**
 * Preloads hold what they cost: each one's bytes and a build slot are counted on the
 * organization (as pending uploads) from the moment it is kept until it is confirmed, discarded
 * or expired, in the same transaction as the row.
 */
import type { Database } from "../../platform/db/client.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import type { StagedBuild } from "./build-inspection.ts";
import {
  deletePreload,
  findPreloadForUpdate,
  insertPreload,
  type NewPreload,
  type PreloadRow,
} from "./upload.repo.ts";
import { preloadInvalid } from "./upload-errors.ts";

export function stagedFromPreload(preload: PreloadRow): StagedBuild {
  return {
    organizationId: preload.organizationId,
    appType: preload.appType as StagedBuild["appType"],
    fileKey: preload.fileKey,
    fileName: preload.fileName,
    fileSize: preload.fileSize,
    sha256: preload.sha256,
    contentType: preload.contentType,
    iconKey: preload.iconKey,
    buildInfo: (preload.buildInfo ?? {}) as Record<string, unknown>,
  };
}

/**
 * A preload is the caller's own upload to this organization, still fresh, and (when it was
 * made for an app) meant for this app. Anything else reads as "no such upload".
 */
export async function takePreload(
  tx: Database,
  path: string,
  who: { userId: number; organizationId: number; appId?: number },
): Promise<PreloadRow> {
  const preload = await findPreloadForUpdate(tx, path);
  if (
    !preload ||
    preload.userId !== who.userId ||
    preload.organizationId !== who.organizationId ||
    preload.expiresAt.getTime() <= Date.now() ||
    (preload.applicationId !== null && preload.applicationId !== who.appId)
  ) {
    throw preloadInvalid();
  }
  return preload;
}

/** Keeps a preload and counts it against the organization's plan. */
export async function reservePreload(
  usage: Pick<OrganizationUsageService, "addUsage">,
  tx: Database,
  values: NewPreload,
): Promise<PreloadRow> {
  const row = await insertPreload(tx, values);
  await usage.addUsage(row.organizationId, { pendingBytes: row.fileSize, pendingUploads: 1 }, tx);
  return row;
}

/** Removes a preload (confirmed, discarded or expired) and gives back what it held. */
export async function releasePreloads(
  usage: Pick<OrganizationUsageService, "addUsage">,
  tx: Database,
  rows: PreloadRow[],
  options: { deleteRows: boolean } = { deleteRows: true },
): Promise<void> {
  const held = new Map<number, { bytes: number; count: number }>();
  for (const row of rows) {
    if (options.deleteRows) await deletePreload(tx, row.id);
    const total = held.get(row.organizationId) ?? { bytes: 0, count: 0 };
    held.set(row.organizationId, { bytes: total.bytes + row.fileSize, count: total.count + 1 });
  }
  for (const [organizationId, total] of held) {
    await usage.addUsage(organizationId, { pendingBytes: -total.bytes, pendingUploads: -total.count }, tx);
  }
}
