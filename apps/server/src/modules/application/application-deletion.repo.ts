import { and, count, eq, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { applications, projects, versions } from "./application.tables.ts";

/**
 * The stored files and total size of the apps' versions, read before the rows go. One row for
 * any number of versions: an app with 100,000 builds is one aggregate, not 100,000 rows to parse.
 */
export async function summarizeVersionFiles(db: Database, organizationId: number, appIds: number[]) {
  if (appIds.length === 0) return { keys: [], bytes: 0, builds: 0 };
  const [row] = await db
    .select({
      keys: sql<string[]>`coalesce(array_agg(k) filter (where k is not null), '{}')`,
    })
    .from(
      sql`(select unnest(array[${versions.fileKey}, ${versions.iconKey}, ${versions.universalApkKey}]) as k
           from ${versions} where ${and(eq(versions.organizationId, organizationId), anyOf(versions.applicationId, appIds))}) keys`,
    );
  const [totals] = await db
    .select({
      bytes: sql<string>`coalesce(sum(${versions.fileSize} + ${versions.universalApkSize}), 0)`,
      builds: count(),
    })
    .from(versions)
    .where(and(eq(versions.organizationId, organizationId), anyOf(versions.applicationId, appIds)));
  return { keys: row?.keys ?? [], bytes: Number(totals?.bytes ?? 0), builds: totals?.builds ?? 0 };
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
    .where(and(eq(applications.organizationId, organizationId), anyOf(applications.id, appIds)));
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
