import { and, count, eq, inArray } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { applications, projects, versions } from "./application.tables.ts";

/** The stored files and sizes of the apps' versions, read before the rows go. */
export async function listVersionFiles(db: Database, organizationId: number, appIds: number[]) {
  if (appIds.length === 0) return [];
  return db
    .select({
      fileKey: versions.fileKey,
      iconKey: versions.iconKey,
      universalApkKey: versions.universalApkKey,
      fileSize: versions.fileSize,
      universalApkSize: versions.universalApkSize,
    })
    .from(versions)
    .where(and(eq(versions.organizationId, organizationId), inArray(versions.applicationId, appIds)));
}

export async function listProjectAppIds(db: Database, organizationId: number, projectId: number) {
  const rows = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.organizationId, organizationId), eq(applications.projectId, projectId)));
  return rows.map((row) => row.id);
}

/** Versions, logs and pending uploads go with their apps (foreign keys cascade). */
export async function deleteApplications(db: Database, organizationId: number, appIds: number[]) {
  if (appIds.length === 0) return;
  await db
    .delete(applications)
    .where(and(eq(applications.organizationId, organizationId), inArray(applications.id, appIds)));
}

export async function countProjectApps(db: Database, projectId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(applications)
    .where(eq(applications.projectId, projectId));
  return row?.value ?? 0;
}

export async function deleteProject(db: Database, organizationId: number, projectId: number) {
  await db
    .delete(projects)
    .where(and(eq(projects.organizationId, organizationId), eq(projects.id, projectId)));
}
