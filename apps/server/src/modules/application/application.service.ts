/**
 * Owns reading, changing and deleting applications and their versions. Every app-scoped call
 * goes through getAccessibleApp: another organization's app, or one the caller may not see,
 * is "not found"; a visible app the caller may not act on is "forbidden".
 */

import type { ApplicationRecord, Version } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { CatalogRows } from "../../platform/cache/catalog-rows.ts";
import { type IdentityCache, keptUnlessInTransaction } from "../../platform/cache/identity-cache.ts";
import type { Database } from "../../platform/db/client.ts";
import {
  type Caller,
  carried,
  type MemberContext,
  type MembershipService,
  userIdOf,
} from "../organization/membership.service.ts";
import { isAdminRole } from "../organization/roles.ts";
import type { UserService, UserSummary } from "../users/user.service.ts";
import { findAppTitles, listChatChannelApps } from "./app-directory.repo.ts";
import { type AppAccess, type AppAction, canOnApp, canSeeApp, canSeeBuild } from "./application.policy.ts";
import type { ApplicationPresenter } from "./application.presenter.ts";
import {
  type ApplicationRow,
  findApplication,
  findApplicationInOrganization,
  findProjectAccess,
  findProjects,
  type ProjectAccessRow,
  type VersionRow,
} from "./application.repo.ts";
import {
  type ShownVersion,
  uploaderOf,
  type VersionAppFacts,
  type VersionPresenter,
} from "./version.presenter.ts";
import { findVersion } from "./version.repo.ts";

export type { ApplicationRow, VersionRow } from "./application.repo.ts";

export interface AccessibleApp {
  app: ApplicationRow;
  member: MemberContext;
  access: AppAccess;
  /** The caller's project role, when they are a project member. */
  projectRole: number | null;
}

/** Whether a project membership covers the app's environment. */
export function coversEnvironment(access: ProjectAccessRow | null, environment: string): boolean {
  if (!access) return false;
  return access.isAccessAllEnvs || access.accessEnvs.includes(environment);
}

/** Reads an app's row by id, whatever its organization (as findApplication does). */
export type AppRowReader = (db: Database, appId: number) => Promise<ApplicationRow | null>;

export interface ApplicationServiceDeps {
  db: Database;
  membership: MembershipService;
  users: UserService;
  presenter: ApplicationPresenter;
  versions: VersionPresenter;
  /** Keeps app rows with the embedded database (see IdentityCache). */
  identity?: IdentityCache;
}

export class ApplicationService {
  /**
   * App rows with the catalog version of their organization they were read at. Every change to
   * an app moves that version, and apps never change organization: a request whose actor carries
   * the same version (read with its token) uses the row without a statement, in every process
   * and with PostgreSQL too.
   */
  private readonly appRows = new CatalogRows<ApplicationRow>();

  constructor(protected readonly deps: ApplicationServiceDeps) {}

  /**
   * The app's row: kept per catalog version for callers who carry theirs, else read (see appRows)
   * by `readRow`, which may bring more along in the same statement.
   */
  private async findAppRow(
    caller: Caller,
    appId: number,
    db: Database,
    readRow: AppRowReader = findApplication,
  ): Promise<ApplicationRow | null> {
    const read = { db, root: this.deps.db };
    const load = () =>
      keptUnlessInTransaction(this.deps.identity, read, `app ${appId}`, () => readRow(db, appId));
    return this.appRows.get(`app ${appId}`, carried(caller, db, this.deps.db), load);
  }

  /** The app with the caller's membership; 404 when absent or invisible, 403 when not allowed. */
  async getAccessibleApp(
    caller: Caller,
    appId: number,
    action: AppAction,
    db: Database = this.deps.db,
    /** Reads the row when it is not kept (findApplication unless given). */
    readRow?: AppRowReader,
  ): Promise<AccessibleApp> {
    const app = await this.findAppRow(caller, appId, db, readRow);
    if (!app) throw AppError.notFound();
    const member = await this.deps.membership.findMembership(caller, app.organizationId, db);
    if (!member) throw AppError.notFound();
    const projectAccess = isAdminRole(member.role)
      ? null
      : await findProjectAccess(db, app.projectId, userIdOf(caller));
    const access: AppAccess = { visible: coversEnvironment(projectAccess, app.environment) };
    if (!canSeeApp(member.role, access)) throw AppError.notFound();
    if (!canOnApp(member.role, action, access)) throw AppError.forbidden();
    return { app, member, access, projectRole: projectAccess?.role ?? null };
  }

  /** A version of an app the caller may act on; builds hidden from the caller's role are 404. */
  async getAccessibleVersion(
    userId: number,
    versionId: number,
    action: AppAction,
    db: Database = this.deps.db,
  ): Promise<AccessibleApp & { version: VersionRow }> {
    const version = await findVersion(db, versionId);
    if (!version) throw AppError.notFound();
    const found = await this.getAccessibleApp(userId, version.applicationId, action, db);
    if (!canSeeBuild(found.member.role, version)) throw AppError.notFound();
    return { ...found, version };
  }

  /** An app of the organization without an access check (the caller has made it). */
  findApp(
    organizationId: number,
    appId: number,
    db: Database = this.deps.db,
  ): Promise<ApplicationRow | null> {
    return findApplicationInOrganization(db, organizationId, appId);
  }

  /** Titles of the organization's apps among these ids (the caller has checked access). */
  findAppTitles(organizationId: number, ids: number[]): Promise<Map<number, string>> {
    return findAppTitles(this.deps.db, organizationId, [...new Set(ids)]);
  }

  /** The organization's apps with a chat channel, a page of them (the caller has checked access). */
  listChatChannelApps(organizationId: number, page: { limit: number; offset: number }) {
    return listChatChannelApps(this.deps.db, organizationId, page);
  }

  /** The presented record of an app in the organization, as an admin sees it. */
  async getRecord(
    organizationId: number,
    appId: number,
    db: Database = this.deps.db,
  ): Promise<ApplicationRecord> {
    const app = await findApplicationInOrganization(db, organizationId, appId);
    if (!app) throw AppError.notFound();
    const [record] = await this.deps.presenter.presentMany(organizationId, [app], 1, db);
    if (!record) throw AppError.notFound();
    return record;
  }

  /** The record as the given member sees it (the webhook URL only for admins). */
  async presentApp(app: ApplicationRow, member: MemberContext, db: Database = this.deps.db) {
    const [record] = await this.deps.presenter.presentMany(app.organizationId, [app], member.role, db);
    if (!record) throw AppError.notFound();
    return record;
  }

  async presentVersion(row: VersionRow, db: Database = this.deps.db): Promise<Version> {
    const app = await findApplicationInOrganization(db, row.organizationId, row.applicationId);
    if (!app) throw AppError.notFound();
    return (await this.presentVersions([row], app, db))[0] as Version;
  }

  async presentVersions(
    rows: VersionRow[],
    app: ApplicationRow,
    db: Database = this.deps.db,
  ): Promise<Version[]> {
    const uploaderIds = [
      ...new Set(rows.map((row) => row.uploadedBy).filter((id): id is number => id !== null)),
    ];
    const people = await this.deps.users.summaries(uploaderIds, db);
    return Promise.all(rows.map((row) => this.deps.versions.present(row, app, uploaderOf(row, people))));
  }

  /**
   * Versions read with their uploaders (a builds page) as JSON records, presented without
   * another statement.
   */
  serializeBuilds(
    builds: Array<{ version: ShownVersion; uploader: UserSummary | null }>,
    app: VersionAppFacts,
  ): Promise<string[]> {
    const people = new Map(builds.flatMap(({ uploader }) => (uploader ? [[uploader.id, uploader]] : [])));
    return Promise.all(
      builds.map(
        async ({ version }) =>
          (await this.deps.versions.render(version, app, uploaderOf(version, people))).json,
      ),
    );
  }

  async getProjectTitle(organizationId: number, projectId: number, db: Database = this.deps.db) {
    const [project] = await findProjects(db, organizationId, [projectId]);
    return project?.title ?? "";
  }
}
