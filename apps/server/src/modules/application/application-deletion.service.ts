/**
 * Deleting versions, apps and projects. Rows, the organization's usage counters and the job
 * that removes the stored files change in one transaction. The rows being deleted are locked
 * first and the counters move by increments at the end, so concurrent uploads and deletions never
 * leave them off, and the organization row is held only for the last moment.
 */
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import type { AppLogService } from "./app-log.service.ts";
import type { FileDeletion } from "./application.jobs.ts";
import { findApplicationInOrganization } from "./application.repo.ts";
import type { ApplicationService } from "./application.service.ts";
import {
  countProjectApps,
  deleteApplications,
  deleteProject,
  listProjectAppIds,
  summarizeVersionFiles,
} from "./application-deletion.repo.ts";
import { lockCatalogRows } from "./release.repo.ts";
import {
  deleteVersionRow,
  findNewestReadyVersionId,
  findVersion,
  setCurrentAfterDeletion,
} from "./version.repo.ts";

/** The stored files another module keeps for these apps, read in the deleting transaction. */
export type AppFilesOf = (applicationIds: number[], tx: Database) => Promise<string[]>;

export class ApplicationDeletionService {
  constructor(
    private readonly deps: {
      db: Database;
      usage: OrganizationUsageService;
      core: ApplicationService;
      appLogs: AppLogService;
      deleteFiles: FileDeletion;
      events: DomainEvents;
    },
  ) {}

  private readonly dependentFiles: AppFilesOf[] = [];

  /** Files other modules keep for apps (feedback screenshots) go with the apps too. */
  addDependentFiles(filesOf: AppFilesOf): void {
    this.dependentFiles.push(filesOf);
  }

  /**
   * Deletes the app, or with `all` every app of its project and the project itself. The project
   * and app rows are locked first; the organization row only when its counters move, at the end:
   * removing an app with 100,000 versions must not hold up the organization's uploads meanwhile.
   */
  async deleteApp(userId: number, appId: number, all: boolean): Promise<void> {
    const { app } = await this.deps.core.getAccessibleApp(userId, appId, "app:delete");
    await this.deps.db.transaction(async (tx) => {
      await lockCatalogRows(tx, { projectIds: [app.projectId] }, "update");
      const appIds = all ? await listProjectAppIds(tx, app.organizationId, app.projectId) : [app.id];
      await lockCatalogRows(tx, { appIds }, "update");
      const current = await findApplicationInOrganization(tx, app.organizationId, app.id);
      if (!current) throw AppError.notFound();
      const files = await summarizeVersionFiles(tx, app.organizationId, appIds);
      const dependent = await Promise.all(this.dependentFiles.map((filesOf) => filesOf(appIds, tx)));
      await this.deps.deleteFiles([...files.keys, ...dependent.flat()], tx);
      await deleteApplications(tx, app.organizationId, appIds);
      // A project lives as long as it has apps.
      const dropProject = all || (await countProjectApps(tx, app.projectId)) === 0;
      if (dropProject) await deleteProject(tx, app.organizationId, app.projectId);
      await this.deps.usage.addUsage(
        app.organizationId,
        {
          bytes: -files.bytes,
          builds: -files.builds,
          projects: dropProject ? -1 : 0,
        },
        tx,
      );
    });
  }

  /** Deletes one version; when it was current, the newest remaining ready version takes over. */
  async deleteVersion(userId: number, versionId: number): Promise<void> {
    const { app } = await this.deps.core.getAccessibleVersion(userId, versionId, "build:delete");
    await this.deps.db.transaction(async (tx) => {
      // The app row first, the organization's only when the counters move (see lockCatalogRows).
      await lockCatalogRows(tx, { appIds: [app.id] }, "update");
      const version = await findVersion(tx, versionId);
      const current = await findApplicationInOrganization(tx, app.organizationId, app.id);
      if (!version || !current) throw AppError.notFound();
      await deleteVersionRow(tx, version.id);
      const nextCurrent =
        current.currentVersionId === version.id
          ? await findNewestReadyVersionId(tx, app.id, version.id)
          : current.currentVersionId;
      await setCurrentAfterDeletion(tx, app.id, nextCurrent);
      await this.deps.usage.addUsage(
        app.organizationId,
        { bytes: -(version.fileSize + version.universalApkSize), builds: -1 },
        tx,
      );
      await this.deps.appLogs.record(
        {
          organizationId: app.organizationId,
          applicationId: app.id,
          userId,
          versionId: version.id,
          action: "version.deleted",
          detail: {
            version: version.version,
            build_version_number: version.buildNumber,
            file_name: version.fileName,
          },
        },
        tx,
      );
      await this.deps.deleteFiles([version.fileKey, version.iconKey, version.universalApkKey], tx);
      await this.deps.events.publish(
        {
          type: "build.deleted",
          organizationId: app.organizationId,
          applicationId: app.id,
          // The build is gone when the event is delivered: it travels with the event.
          data: {
            build: {
              id: version.id,
              version: version.version,
              build_number: version.buildNumber,
              file_name: version.fileName,
              file_size: version.fileSize,
              whats_new: version.whatsNew,
              icon_url: null,
              install_url: null,
            },
            deleted_by: userId,
          },
        },
        { tx },
      );
    });
  }
}
