import { and, asc, desc, eq, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ApplicationRow, VersionRow } from "./application.repo.ts";
import { applications, projectMembers, projects, versions } from "./application.tables.ts";
import { grantedByGroup } from "./permission-group.repo.ts";

export async function listProjectAppRows(db: Database, organizationId: number, projectId: number) {
  return db
    .select()
    .from(applications)
    .where(and(eq(applications.organizationId, organizationId), eq(applications.projectId, projectId)))
    .orderBy(asc(applications.appType), asc(applications.id));
}

export type RowLock = "update" | "key share";

/**
 * Row locks in the one order every writer takes them, so writers never wait on each other in a
 * circle: projects, then apps (each by id), and only then the organization row. "key share"
 * keeps a row from being deleted; "update" is for changing or deleting it.
 */
export async function lockCatalogRows(
  db: Database,
  rows: { projectIds?: number[]; appIds?: number[] },
  mode: RowLock,
): Promise<void> {
  const lock = mode === "update" ? sql`for update` : sql`for key share`;
  for (const [table, ids] of [
    [projects, rows.projectIds ?? []],
    [applications, rows.appIds ?? []],
  ] as const) {
    if (ids.length === 0) continue;
    const list = sql.join(
      [...new Set(ids)].map((id) => sql`${id}`),
      sql`, `,
    );
    await db.execute(sql`select id from ${table} where id in (${list}) order by id ${lock}`);
  }
}

/** The newest released build of each app of the project in one environment, by platform. */
export async function listNewestReleasedPerApp(
  db: Database,
  organizationId: number,
  projectId: number,
  environment: string,
): Promise<Array<{ app: ApplicationRow; version: VersionRow }>> {
  // One row per app however many builds it has.
  const rows = await db
    .selectDistinctOn([versions.applicationId], { app: applications, version: versions })
    .from(versions)
    .innerJoin(applications, eq(applications.id, versions.applicationId))
    .where(
      and(
        eq(applications.organizationId, organizationId),
        eq(applications.projectId, projectId),
        eq(applications.environment, environment),
        eq(versions.state, "ready"),
        eq(versions.readyToSale, true),
      ),
    )
    .orderBy(versions.applicationId, desc(versions.id));
  return rows.sort((a, b) => a.app.appType - b.app.appType);
}

export async function findVersionWithApp(
  db: Database,
  organizationId: number,
  versionId: number,
): Promise<{ app: ApplicationRow; version: VersionRow } | null> {
  const [row] = await db
    .select({ app: applications, version: versions })
    .from(versions)
    .innerJoin(applications, eq(applications.id, versions.applicationId))
    .where(and(eq(versions.organizationId, organizationId), eq(versions.id, versionId)))
    .limit(1);
  return row ?? null;
}

/** Counts one install or delivered download of a version; a single statement, so none is lost. */
export async function incrementVersionCounter(db: Database, versionId: number, kind: "install" | "download") {
  const counter = kind === "install" ? versions.installCount : versions.downloadCount;
  await db
    .update(versions)
    .set({ [kind === "install" ? "installCount" : "downloadCount"]: sql`${counter} + 1` })
    .where(eq(versions.id, versionId));
}

/** The newest finished builds of each app, for the version picker. */
export async function listRecentVersions(db: Database, appIds: number[], perApp: number) {
  if (appIds.length === 0) return [];
  const ranked = db
    .select({
      id: versions.id,
      applicationId: versions.applicationId,
      version: versions.version,
      buildNumber: versions.buildNumber,
      createdAt: versions.createdAt,
      rank: sql<number>`row_number() over (partition by ${versions.applicationId} order by ${versions.id} desc)`.as(
        "rank",
      ),
    })
    .from(versions)
    .where(and(anyOf(versions.applicationId, appIds), eq(versions.state, "ready")))
    .as("ranked");
  return db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${perApp}`)
    .orderBy(asc(ranked.applicationId), desc(ranked.id));
}

// Profiles list UDIDs in either case (older 40-hex ones are lower case); compare without it.
const provisionedUdids = sql`case when jsonb_typeof(${versions.buildInfo}->'provisioning'->'devices') = 'array'
  then ${versions.buildInfo}->'provisioning'->'devices' else '[]'::jsonb end`;

/**
 * Builds of the given organizations whose provisioning profile lists one of the UDIDs, with the
 * user's project membership of each (what the caller's access is decided from).
 */
export async function listProvisionedBuilds(
  db: Database,
  organizationIds: number[],
  userId: number,
  udids: string[],
) {
  if (udids.length === 0 || organizationIds.length === 0) return [];
  const listed = sql.join(
    udids.map((udid) => sql`${udid.toLowerCase()}`),
    sql`, `,
  );
  return db
    .select({
      version: versions,
      app: applications,
      projectAccess: {
        // A permission group's grant covers every environment.
        isAccessAllEnvs: sql<boolean>`coalesce(${projectMembers.isAccessAllEnvs}, false) or ${grantedByGroup(sql`${applications.projectId}`, userId)}`,
        accessEnvs: sql<string[]>`coalesce(${projectMembers.accessEnvs}, '{}'::text[])`,
        role: projectMembers.role,
      },
      matched: sql<string[]>`array(select lower(d) from jsonb_array_elements_text(${provisionedUdids}) d
        where lower(d) in (${listed}))`,
    })
    .from(versions)
    .innerJoin(applications, eq(applications.id, versions.applicationId))
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.projectId, applications.projectId), eq(projectMembers.userId, userId)),
    )
    .where(
      and(
        anyOf(versions.organizationId, organizationIds),
        sql`exists (select 1 from jsonb_array_elements_text(${provisionedUdids}) d where lower(d) in (${listed}))`,
      ),
    )
    .orderBy(desc(versions.id));
}
