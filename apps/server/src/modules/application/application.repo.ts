import { and, asc, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { preparedPerDatabase } from "../../platform/db/prepared.ts";
import { userDirectory } from "../users/users.views.ts";
import { applications, projectMembers, projects, versions } from "./application.tables.ts";
import { isGrantedByGroup } from "./permission-group.repo.ts";

export type ApplicationRow = typeof applications.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;
/** `role` is null when only a permission group grants the project (the organization role applies). */
export type ProjectAccessRow = { role: number | null; isAccessAllEnvs: boolean; accessEnvs: string[] };

const applicationQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(applications)
    .where(eq(applications.id, sql.placeholder("appId")))
    .limit(1)
    .prepare("application"),
);

/** The app by id, whatever its organization: every app-scoped request starts here. */
export async function findApplication(db: Database, appId: number): Promise<ApplicationRow | null> {
  const [row] = await applicationQuery(db).execute({ appId });
  return row ?? null;
}

export async function findApplicationInOrganization(
  db: Database,
  organizationId: number,
  appId: number,
): Promise<ApplicationRow | null> {
  const [row] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.organizationId, organizationId), eq(applications.id, appId)))
    .limit(1);
  return row ?? null;
}

/** The caller's membership of the project, when there is one. */
export async function findProjectAccess(
  db: Database,
  projectId: number,
  userId: number,
): Promise<ProjectAccessRow | null> {
  const [row] = await db
    .select({
      role: projectMembers.role,
      isAccessAllEnvs: projectMembers.isAccessAllEnvs,
      accessEnvs: projectMembers.accessEnvs,
    })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
    .limit(1);
  // A membership covering every environment needs no more; otherwise a permission group's grant
  // (every environment) may widen it, which costs a second query only then.
  if (row?.isAccessAllEnvs) return row;
  if (await isGrantedByGroup(db, projectId, userId)) {
    return { role: row?.role ?? null, isAccessAllEnvs: true, accessEnvs: row?.accessEnvs ?? [] };
  }
  return row ?? null;
}

export async function findProjects(db: Database, organizationId: number, projectIds: number[]) {
  if (projectIds.length === 0) return [];
  return db
    .select({ id: projects.id, title: projects.title })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), anyOf(projects.id, projectIds)));
}

/** Every app of the given projects (few per project: one per platform and environment). */
export async function listProjectApps(db: Database, organizationId: number, projectIds: number[]) {
  if (projectIds.length === 0) return [];
  return db
    .select({
      id: applications.id,
      projectId: applications.projectId,
      title: applications.title,
      appType: applications.appType,
      environment: applications.environment,
    })
    .from(applications)
    .where(and(eq(applications.organizationId, organizationId), anyOf(applications.projectId, projectIds)))
    .orderBy(asc(applications.id));
}

/** What an app record shows of its project: its title, its apps and its members' user ids. */
export interface ProjectContext {
  id: number;
  title: string;
  /** Every app of the project (one per platform and environment), by id. */
  apps: Array<{ id: number; title: string; appType: number; environment: string }>;
  memberIds: number[];
}

/**
 * The project `projectId` as a ProjectContext, one JSON object (a scalar subquery): the project's
 * `context_json`, which triggers render on every change to it, its apps and its members.
 */
export function projectContextJson(projectId: SQLWrapper): SQL {
  return sql`(select p.context_json::json from ${projects} p where p.id = ${projectId})`;
}

/** Projects as ProjectContexts, in one statement. */
export async function findProjectContexts(
  db: Database,
  organizationId: number,
  projectIds: number[],
): Promise<ProjectContext[]> {
  if (projectIds.length === 0) return [];
  const found = await db
    .select({ context: sql<ProjectContext>`${projects.contextJson}::json` })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), anyOf(projects.id, projectIds)));
  return found.map((row) => row.context);
}

const versionsByIdsQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(versions)
    .where(
      and(
        eq(versions.organizationId, sql.placeholder("organizationId")),
        anyOf(versions.id, sql.placeholder("ids")),
      ),
    )
    .prepare("versions_by_ids"),
);

export async function findVersionsByIds(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return versionsByIdsQuery(db).execute({ organizationId, ids });
}

/** Who uploaded a version, joined from the user directory (null once the account is gone). */
export const uploaderColumns = {
  id: userDirectory.userId,
  email: userDirectory.email,
  firstName: userDirectory.firstName,
  lastName: userDirectory.lastName,
  isActive: userDirectory.isActive,
};

/** The columns presenting a build reads (ShownVersion): list reads select these only. */
export const shownVersionColumns = {
  id: versions.id,
  version: versions.version,
  iconKey: versions.iconKey,
  uploadedBy: versions.uploadedBy,
  recordJson: versions.recordJson,
};

/** Builds as presenting reads them (shownVersionColumns), each with its uploader, to filter on. */
export function selectBuildsWithUploaders(db: Database) {
  return db
    .select({ version: shownVersionColumns, uploader: uploaderColumns })
    .from(versions)
    .leftJoin(userDirectory, eq(userDirectory.userId, versions.uploadedBy));
}

const versionsWithUploadersQuery = preparedPerDatabase((db) =>
  selectBuildsWithUploaders(db)
    .where(
      and(
        eq(versions.organizationId, sql.placeholder("organizationId")),
        anyOf(versions.id, sql.placeholder("ids")),
      ),
    )
    .prepare("versions_with_uploaders"),
);

/** A build as lists show it (shownVersionColumns), with who uploaded it (null when gone). */
export type BuildWithUploader = Awaited<ReturnType<typeof findVersionsWithUploaders>>[number];

/** The versions with these ids, each with the person who uploaded it (null when gone). */
export async function findVersionsWithUploaders(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return (await versionsWithUploadersQuery(db).execute({ organizationId, ids })).map(buildWithUploader);
}

/** A version read with its uploader, keyed by the version's id (to arrange a page by ids). */
export const buildWithUploader = <V extends { id: number }, U>(row: { version: V; uploader: U }) => ({
  id: row.version.id,
  ...row,
});

/**
 * Up to `limit` newest ready versions of each app other than its current one, in one query:
 * a lateral subquery per app walks the (application_id, id desc) index and stops early.
 */
export async function listPreviousVersions(
  db: Database,
  organizationId: number,
  appIds: number[],
  limit: number,
): Promise<VersionRow[]> {
  if (appIds.length === 0) return [];
  const ids = sql.join(
    appIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select v.id from ${applications} a
    cross join lateral (
      select p.id from ${versions} p
      where p.application_id = a.id and p.state = 'ready'
        and p.id is distinct from a.current_version_id
      order by p.id desc limit ${limit}
    ) v
    where a.organization_id = ${organizationId} and a.id in (${ids})`);
  // Both drivers (pg and PGlite) answer raw SQL with a result carrying `rows`.
  const versionIds = (result as unknown as { rows: { id: string | number }[] }).rows.map((row) =>
    Number(row.id),
  );
  const rows = await findVersionsByIds(db, organizationId, versionIds);
  return rows.sort((left, right) => right.id - left.id);
}

/**
 * The icon each app shows: that of its newest ready build that has one, so an app whose latest
 * build carries no icon keeps the one it had. One statement for all the apps; a lateral subquery
 * per app walks the (application_id, id desc) index back to the first build with an icon.
 */
export async function findAppIconKeys(
  db: Database,
  organizationId: number,
  appIds: number[],
): Promise<Map<number, string>> {
  if (appIds.length === 0) return new Map();
  const result = await db.execute(sql`
    select ${applications.id} as app_id, icon.key as icon_key from ${applications}
    cross join lateral (
      select ${versions.iconKey} as key from ${versions}
      where ${versions.applicationId} = ${applications.id} and ${versions.state} = 'ready'
        and ${versions.iconKey} is not null
      order by ${versions.id} desc limit 1
    ) icon
    where ${applications.organizationId} = ${organizationId} and ${anyOf(applications.id, appIds)}`);
  const rows = (result as unknown as { rows: { app_id: string | number; icon_key: string }[] }).rows;
  return new Map(rows.map((row) => [Number(row.app_id), row.icon_key]));
}

export async function updateApplication(
  db: Database,
  organizationId: number,
  appId: number,
  values: Partial<
    Pick<
      ApplicationRow,
      | "title"
      | "description"
      | "environment"
      | "slackWebhookSealed"
      | "slackChannel"
      | "chatFormat"
      | "readyToSale"
      | "feedbackEnabled"
      | "autoUpdateEnabled"
      | "appKey"
    >
  >,
): Promise<ApplicationRow | null> {
  const [row] = await db
    .update(applications)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(applications.organizationId, organizationId), eq(applications.id, appId)))
    .returning();
  return row ?? null;
}

export async function renameProject(db: Database, organizationId: number, projectId: number, title: string) {
  await db
    .update(projects)
    .set({ title })
    .where(and(eq(projects.organizationId, organizationId), eq(projects.id, projectId)));
}

/** Another app of the project for the same platform and environment, if any. */
export async function findSiblingInEnvironment(
  db: Database,
  app: { id: number; projectId: number; appType: number },
  environment: string,
): Promise<number | null> {
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(
      and(
        eq(applications.projectId, app.projectId),
        eq(applications.appType, app.appType),
        eq(applications.environment, environment),
        sql`${applications.id} <> ${app.id}`,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}
