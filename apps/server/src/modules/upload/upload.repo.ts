import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import {
  applications,
  organizations,
  plans,
  preloads,
  projects,
  uploadTasks,
  versions,
} from "../../platform/db/schema/index.ts";

export type PreloadRow = typeof preloads.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;
export type UploadTaskRow = typeof uploadTasks.$inferSelect;

/** The organization's usage counters in bytes and its plan's limits (0 = unlimited). */
export async function findQuota(db: Database, organizationId: number) {
  const [row] = await db
    .select({
      spaceUsedBytes: organizations.spaceUsedBytes,
      buildsCount: organizations.buildsCount,
      projectsCount: organizations.projectsCount,
      spaceLimitMb: plans.spaceLimitMb,
      buildLimit: plans.buildLimit,
      projectsLimit: plans.projectsLimit,
    })
    .from(organizations)
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row ?? null;
}
export type Quota = NonNullable<Awaited<ReturnType<typeof findQuota>>>;

/** Counters move in the transaction that adds or removes what they count. */
export async function addUsage(
  db: Database,
  organizationId: number,
  delta: { bytes?: number; builds?: number; projects?: number },
): Promise<void> {
  await db
    .update(organizations)
    .set({
      spaceUsedBytes: sql`greatest(0, ${organizations.spaceUsedBytes} + ${delta.bytes ?? 0})`,
      buildsCount: sql`greatest(0, ${organizations.buildsCount} + ${delta.builds ?? 0})`,
      projectsCount: sql`greatest(0, ${organizations.projectsCount} + ${delta.projects ?? 0})`,
    })
    .where(eq(organizations.id, organizationId));
}

export async function insertPreload(db: Database, values: typeof preloads.$inferInsert): Promise<PreloadRow> {
  const [row] = await db.insert(preloads).values(values).returning();
  if (!row) throw new Error("preload insert returned nothing");
  return row;
}

/** Locks the preload so two confirms of one upload cannot both use it. */
export async function findPreloadForUpdate(db: Database, path: string): Promise<PreloadRow | null> {
  const [row] = await db.select().from(preloads).where(eq(preloads.path, path)).for("update").limit(1);
  return row ?? null;
}

export async function deletePreload(db: Database, id: number): Promise<void> {
  await db.delete(preloads).where(eq(preloads.id, id));
}

/** Expired preloads, deleted as they are returned, so each file is handed to one sweeper. */
export async function takeExpiredPreloads(db: Database, now: Date, limit: number): Promise<PreloadRow[]> {
  return db
    .delete(preloads)
    .where(
      inArray(
        preloads.id,
        db.select({ id: preloads.id }).from(preloads).where(lt(preloads.expiresAt, now)).limit(limit),
      ),
    )
    .returning();
}

export async function listVersionKeys(db: Database, applicationId: number) {
  return db
    .select({ version: versions.version, buildNumber: versions.buildNumber })
    .from(versions)
    .where(eq(versions.applicationId, applicationId));
}

export async function versionExists(
  db: Database,
  applicationId: number,
  version: string,
  buildNumber: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: versions.id })
    .from(versions)
    .where(
      and(
        eq(versions.applicationId, applicationId),
        eq(versions.version, version),
        eq(versions.buildNumber, buildNumber),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function findProject(db: Database, organizationId: number, projectId: number) {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.organizationId, organizationId)))
    .limit(1);
  return row ?? null;
}

export async function insertProject(db: Database, organizationId: number, title: string) {
  const [row] = await db.insert(projects).values({ organizationId, title }).returning();
  if (!row) throw new Error("project insert returned nothing");
  return row;
}

export async function insertApplication(db: Database, values: typeof applications.$inferInsert) {
  const [row] = await db.insert(applications).values(values).returning();
  if (!row) throw new Error("application insert returned nothing");
  return row;
}

export async function findApplication(db: Database, organizationId: number, applicationId: number) {
  const [row] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.id, applicationId), eq(applications.organizationId, organizationId)))
    .limit(1);
  return row ?? null;
}
export type ApplicationRow = NonNullable<Awaited<ReturnType<typeof findApplication>>>;

export async function findApplicationByKey(db: Database, appKey: string) {
  const [row] = await db.select().from(applications).where(eq(applications.appKey, appKey)).limit(1);
  return row ?? null;
}

export async function insertVersion(db: Database, values: typeof versions.$inferInsert): Promise<VersionRow> {
  const [row] = await db.insert(versions).values(values).returning();
  if (!row) throw new Error("version insert returned nothing");
  return row;
}

/** The new version becomes current; the bundle id follows when the user accepted the change. */
export async function markNewVersion(
  db: Database,
  applicationId: number,
  versionId: number,
  bundleId?: string | null,
): Promise<void> {
  await db
    .update(applications)
    .set({
      currentVersionId: versionId,
      versionsCount: sql`${applications.versionsCount} + 1`,
      updatedAt: new Date(),
      ...(bundleId !== undefined ? { bundleId } : {}),
    })
    .where(eq(applications.id, applicationId));
}

export async function setApplicationBundleId(db: Database, applicationId: number, bundleId: string | null) {
  await db
    .update(applications)
    .set({ bundleId, updatedAt: new Date() })
    .where(eq(applications.id, applicationId));
}

export async function findVersion(db: Database, organizationId: number, versionId: number) {
  const [row] = await db
    .select()
    .from(versions)
    .where(and(eq(versions.id, versionId), eq(versions.organizationId, organizationId)))
    .limit(1);
  return row ?? null;
}

/** Which app a version belongs to; the caller then checks access to that app. */
export async function findVersionOwner(db: Database, versionId: number) {
  const [row] = await db
    .select({ organizationId: versions.organizationId, applicationId: versions.applicationId })
    .from(versions)
    .where(eq(versions.id, versionId))
    .limit(1);
  return row ?? null;
}

export async function findVersionForUpdate(db: Database, versionId: number): Promise<VersionRow | null> {
  const [row] = await db.select().from(versions).where(eq(versions.id, versionId)).for("update").limit(1);
  return row ?? null;
}

export async function updateVersion(
  db: Database,
  versionId: number,
  values: Partial<typeof versions.$inferInsert>,
) {
  await db
    .update(versions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(versions.id, versionId));
}

export async function insertUploadTask(db: Database, values: typeof uploadTasks.$inferInsert) {
  await db.insert(uploadTasks).values(values);
}

export async function findUploadTask(db: Database, taskId: string): Promise<UploadTaskRow | null> {
  const [row] = await db.select().from(uploadTasks).where(eq(uploadTasks.id, taskId)).limit(1);
  return row ?? null;
}

export async function updateUploadTask(
  db: Database,
  taskId: string,
  values: Partial<Pick<UploadTaskRow, "state" | "errorCode" | "detail">>,
) {
  await db
    .update(uploadTasks)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(uploadTasks.id, taskId));
}

/** Which of `keys` a version or preload still points at; the rest may be swept. */
export async function findReferencedKeys(db: Database, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const fromVersions = await db
    .select({ file: versions.fileKey, icon: versions.iconKey, apk: versions.universalApkKey })
    .from(versions)
    .where(
      or(
        inArray(versions.fileKey, keys),
        inArray(versions.iconKey, keys),
        inArray(versions.universalApkKey, keys),
      ),
    );
  const fromPreloads = await db
    .select({ file: preloads.fileKey, icon: preloads.iconKey })
    .from(preloads)
    .where(or(inArray(preloads.fileKey, keys), inArray(preloads.iconKey, keys)));
  const referenced = new Set<string>();
  for (const row of [...fromVersions, ...fromPreloads]) {
    for (const key of Object.values(row)) if (key) referenced.add(key);
  }
  return referenced;
}
