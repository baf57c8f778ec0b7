/**
 * What the upload module records through: projects, apps and versions made from uploaded
 * builds, and the version changes of a file exchange or an AAB conversion. The rules of an
 * upload (limits, version order, bundle ids) are the upload module's; the rows are this module's.
 */
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationRow, VersionRow } from "./application.repo.ts";
import {
  findApplicationByKey,
  findKeysReferencedByVersions,
  findProject,
  findVersionForUpdate,
  findVersionInOrganization,
  findVersionOwner,
  insertApplication,
  insertProject,
  insertVersion,
  listVersionKeys,
  markNewVersion,
  type NewApplication,
  type NewVersion,
  updateVersionRow,
  type VersionChanges,
  versionExists,
} from "./build-record.repo.ts";
import { findVersionReported } from "./version.repo.ts";

export class BuildRecordService {
  constructor(private readonly deps: { db: Database }) {}

  findProject(organizationId: number, projectId: number, db = this.deps.db) {
    return findProject(db, organizationId, projectId);
  }

  createProject(organizationId: number, title: string, db = this.deps.db) {
    return insertProject(db, organizationId, title);
  }

  createApp(values: NewApplication, db = this.deps.db): Promise<ApplicationRow> {
    return insertApplication(db, values);
  }

  /** The app a CI upload URL names; null for an unknown key. */
  findAppByKey(appKey: string, db = this.deps.db): Promise<ApplicationRow | null> {
    return findApplicationByKey(db, appKey);
  }

  listVersionKeys(applicationId: number, db = this.deps.db) {
    return listVersionKeys(db, applicationId);
  }

  versionExists(applicationId: number, version: string, buildNumber: string, db = this.deps.db) {
    return versionExists(db, applicationId, version, buildNumber);
  }

  /** The build an installed app names by its version or build number (feedback, update checks). */
  findVersionReported(
    applicationId: number,
    reported: string,
    db = this.deps.db,
  ): Promise<VersionRow | null> {
    return findVersionReported(db, applicationId, reported);
  }

  /** Adds the version and makes it the app's current one (with the accepted bundle id, if any). */
  async addVersion(
    values: NewVersion,
    bundleId: string | null | undefined,
    db = this.deps.db,
  ): Promise<VersionRow> {
    const row = await insertVersion(db, values);
    await markNewVersion(db, values.applicationId, row.id, bundleId);
    return row;
  }

  findVersion(organizationId: number, versionId: number, db = this.deps.db): Promise<VersionRow | null> {
    return findVersionInOrganization(db, organizationId, versionId);
  }

  findVersionOwner(versionId: number, db = this.deps.db) {
    return findVersionOwner(db, versionId);
  }

  /** The version row, locked for the rest of `tx`. */
  lockVersion(versionId: number, tx: Database): Promise<VersionRow | null> {
    return findVersionForUpdate(tx, versionId);
  }

  updateVersion(versionId: number, values: VersionChanges, db = this.deps.db): Promise<void> {
    return updateVersionRow(db, versionId, values);
  }

  /** Which of the storage keys a version still points at (the rest may be swept). */
  async referencedKeys(keys: string[], db = this.deps.db): Promise<Set<string>> {
    return new Set(await findKeysReferencedByVersions(db, keys));
  }
}
