/**
 * What distribution and sending builds read of apps and versions: the released builds of a
 * project, versions by id, the version picker, install counters and builds provisioned for a
 * device. Access rules stay with ApplicationService; callers check access first.
 */
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationRow, VersionRow } from "./application.repo.ts";
import { findAppIconKeys, findVersionsByIds } from "./application.repo.ts";
import {
  findVersionWithApp,
  incrementVersionCounter,
  listNewestReleasedPerApp,
  listProjectAppRows,
  listProvisionedBuilds,
  listRecentVersions,
} from "./release.repo.ts";

export class ReleaseService {
  constructor(private readonly deps: { db: Database }) {}

  /** Every app of the project (each platform and environment), by platform. */
  listProjectApps(organizationId: number, projectId: number, db = this.deps.db): Promise<ApplicationRow[]> {
    return listProjectAppRows(db, organizationId, projectId);
  }

  newestReleasedPerApp(organizationId: number, projectId: number, environment: string, db = this.deps.db) {
    return listNewestReleasedPerApp(db, organizationId, projectId, environment);
  }

  findVersionWithApp(organizationId: number, versionId: number, db = this.deps.db) {
    return findVersionWithApp(db, organizationId, versionId);
  }

  /** The icon the app shows: its newest ready build's that has one (null if none ever had). */
  async appIconKey(organizationId: number, appId: number, db = this.deps.db): Promise<string | null> {
    return (await findAppIconKeys(db, organizationId, [appId])).get(appId) ?? null;
  }

  async findVersions(
    organizationId: number,
    ids: number[],
    db = this.deps.db,
  ): Promise<Map<number, VersionRow>> {
    const rows = await findVersionsByIds(db, organizationId, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  recentVersions(appIds: number[], perApp: number, db = this.deps.db) {
    return listRecentVersions(db, appIds, perApp);
  }

  countInstallEvent(versionId: number, kind: "install" | "download", db = this.deps.db): Promise<void> {
    return incrementVersionCounter(db, versionId, kind);
  }

  provisionedBuilds(organizationIds: number[], userId: number, udids: string[], db = this.deps.db) {
    return listProvisionedBuilds(db, organizationIds, userId, udids);
  }
}
