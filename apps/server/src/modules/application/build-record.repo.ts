import { and, eq, or, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { applications, projects, versions } from "./application.tables.ts";

export type NewApplication = typeof applications.$inferInsert;
export type NewVersion = typeof versions.$inferInsert;
export type VersionChanges = Partial<typeof versions.$inferInsert>;

export async function insertProject(db: Database, organizationId: number, title: string) {
  const [row] = await db.insert(projects).values({ organizationId, title }).returning();
  if (!row) throw new Error("project insert returned nothing");
  return row;
}

export async function findProject(db: Database, organizationId: number, projectId: number) {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.organizationId, organizationId)))
    .limit(1);
  return row ?? null;
}

export async function insertApplication(db: Database, values: NewApplication) {
  const [row] = await db.insert(applications).values(values).returning();
  if (!row) throw new Error("application insert returned nothing");
  return row;
}

export async function findApplicationByKey(db: Database, appKey: string) {
  const [row] = await db.select().from(applications).where(eq(applications.appKey, appKey)).limit(1);
  return row ?? null;
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
) {
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

export async function insertVersion(db: Database, values: NewVersion) {
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

export async function findVersionInOrganization(db: Database, organizationId: number, versionId: number) {
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

export async function findVersionForUpdate(db: Database, versionId: number) {
  const [row] = await db.select().from(versions).where(eq(versions.id, versionId)).for("update").limit(1);
  return row ?? null;
}

export async function updateVersionRow(db: Database, versionId: number, values: VersionChanges) {
  await db
    .update(versions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(versions.id, versionId));
}

/** Which of `keys` a version still points at. */
export async function findKeysReferencedByVersions(db: Database, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select({ file: versions.fileKey, icon: versions.iconKey, apk: versions.universalApkKey })
    .from(versions)
    .where(
      or(anyOf(versions.fileKey, keys), anyOf(versions.iconKey, keys), anyOf(versions.universalApkKey, keys)),
    );
  return rows.flatMap((row) => [row.file, row.icon, row.apk]).filter((key): key is string => Boolean(key));
}
