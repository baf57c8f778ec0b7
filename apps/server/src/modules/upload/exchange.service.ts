import type { ExchangeFileInput, Version } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { FileDeletion } from "../application/application.jobs.ts";
import { checkBuildLimits } from "./build-commit.service.ts";
import { buildFacts, storedFileColumns } from "./build-inspection.ts";
import { releasePreloads, stagedFromPreload, takePreload } from "./preload-store.ts";
import type { BuildDeps } from "./upload-deps.ts";
import { uploadError } from "./upload-errors.ts";

/**
 * Replaces the file of an existing version with a preloaded one (same platform and bundle id),
 * keeping the version's place in the app's history.
 */
export class ExchangeService {
  constructor(
    private readonly deps: BuildDeps & {
      /** The application module's file deletion: runs once the transaction commits. */
      deleteFiles: FileDeletion;
    },
  ) {}

  async exchange(userId: number, versionId: number, input: ExchangeFileInput): Promise<Version> {
    const { db } = this.deps;
    const located = await this.deps.builds.findVersionOwner(versionId);
    if (!located) throw AppError.notFound();
    const { app } = await this.deps.applications.getAccessibleApp(
      userId,
      located.applicationId,
      "build:update",
    );
    const organizationId = app.organizationId;
    await db.transaction(async (tx) => {
      await this.deps.catalogLocks.rows({ appIds: [app.id] }, "key share", tx);
      await this.deps.membership.lockOrganization(organizationId, tx);
      const version = await this.deps.builds.lockVersion(versionId, tx);
      const current = await this.deps.applications.findApp(organizationId, app.id, tx);
      if (!version || !current || version.applicationId !== current.id) throw AppError.notFound();
      if (version.state === "processing") {
        throw new AppError("version_processing", 409, "This version is still processing.");
      }
      const preload = await takePreload(tx, input.preload_path, { userId, organizationId, appId: app.id });
      // The preload gives back what it held before the space is checked.
      await releasePreloads(this.deps.usage, tx, [preload]);
      const staged = stagedFromPreload(preload);
      const facts = buildFacts(staged.buildInfo);
      if (staged.appType !== current.appType) throw uploadError(5);
      if (current.bundleId && facts.bundleId && current.bundleId !== facts.bundleId) throw uploadError(4);
      const delta = staged.fileSize - version.fileSize - version.universalApkSize;
      const quota = await this.deps.usage.getQuota(organizationId, tx);
      if (!quota) throw AppError.notFound();
      // Only growth can break the space limit; the build count does not change.
      if (delta > 0) checkBuildLimits({ ...quota, buildLimit: 0 }, delta, { countWaiting: false });
      await this.deps.builds.updateVersion(
        version.id,
        {
          ...storedFileColumns(staged),
          bundleId: facts.bundleId,
          minOsVersion: facts.minOsVersion,
          // A universal APK made from the old bundle no longer matches the file.
          universalApkKey: null,
          universalApkSize: 0,
          state: "ready",
        },
        tx,
      );
      await this.deps.usage.addUsage(organizationId, { bytes: delta }, tx);
      await this.deps.appLogs.record(
        {
          organizationId,
          applicationId: current.id,
          userId,
          versionId: version.id,
          action: "version.file_exchanged",
          detail: { comment: input.comment, old_file_name: version.fileName, new_file_name: staged.fileName },
        },
        tx,
      );
      const replaced = [version.fileKey, version.iconKey, version.universalApkKey].filter(
        (key): key is string => Boolean(key) && key !== staged.iconKey,
      );
      await this.deps.deleteFiles(replaced, tx);
    });
    const updated = await this.deps.builds.findVersion(organizationId, versionId);
    if (!updated) throw AppError.notFound();
    return this.deps.applications.presentVersion(updated);
  }
}
