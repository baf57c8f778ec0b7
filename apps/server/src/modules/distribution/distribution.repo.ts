import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import {
  applications,
  distributions,
  installEvents,
  organizations,
  testers,
  versions,
} from "../../platform/db/schema/index.ts";

export type DistributionRow = typeof distributions.$inferSelect;
export type NewDistribution = typeof distributions.$inferInsert;
type AppRow = typeof applications.$inferSelect;
type VersionRow = typeof versions.$inferSelect;

export async function findDistributionByKey(db: Database, key: string): Promise<DistributionRow | null> {
  const [row] = await db.select().from(distributions).where(eq(distributions.key, key)).limit(1);
  return row ?? null;
}

export async function findDistribution(db: Database, id: number): Promise<DistributionRow | null> {
  const [row] = await db.select().from(distributions).where(eq(distributions.id, id)).limit(1);
  return row ?? null;
}

export async function listAppDistributions(
  db: Database,
  organizationId: number,
  applicationId: number,
): Promise<DistributionRow[]> {
  // The app-level link first, then per-version links, newest first.
  return db
    .select()
    .from(distributions)
    .where(
      and(eq(distributions.organizationId, organizationId), eq(distributions.applicationId, applicationId)),
    )
    .orderBy(sql`${distributions.versionId} is not null`, desc(distributions.id));
}

export async function findAppLevelDistribution(
  db: Database,
  organizationId: number,
  applicationId: number,
): Promise<DistributionRow | null> {
  const [row] = await db
    .select()
    .from(distributions)
    .where(
      and(
        eq(distributions.organizationId, organizationId),
        eq(distributions.applicationId, applicationId),
        isNull(distributions.versionId),
      ),
    )
    .orderBy(asc(distributions.id))
    .limit(1);
  return row ?? null;
}

/** Serializes the lazy creation of an app's public link between concurrent first readers. */
export async function lockApplication(db: Database, applicationId: number): Promise<void> {
  await db.execute(
    sql`select id from ${applications} where ${applications.id} = ${applicationId} for update`,
  );
}

export async function insertDistribution(db: Database, values: NewDistribution): Promise<DistributionRow> {
  const [row] = await db.insert(distributions).values(values).returning();
  if (!row) throw new Error("distribution insert failed");
  return row;
}

export async function updateDistribution(
  db: Database,
  organizationId: number,
  id: number,
  values: Partial<Pick<DistributionRow, "access" | "passwordHash" | "expiresAt" | "installLimit">>,
): Promise<DistributionRow | null> {
  const [row] = await db
    .update(distributions)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(distributions.organizationId, organizationId), eq(distributions.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteDistribution(db: Database, organizationId: number, id: number): Promise<void> {
  await db
    .delete(distributions)
    .where(and(eq(distributions.organizationId, organizationId), eq(distributions.id, id)));
}

/** Download and install events per link, for the counts shown with each link. */
export async function countEventsByDistribution(db: Database, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ distributionId: installEvents.distributionId, kind: installEvents.kind, value: count() })
    .from(installEvents)
    .where(inArray(installEvents.distributionId, ids))
    .groupBy(installEvents.distributionId, installEvents.kind);
}

export async function countEventsOfVersion(db: Database, organizationId: number, versionId: number) {
  return db
    .select({ platform: installEvents.platform, kind: installEvents.kind, value: count() })
    .from(installEvents)
    .where(and(eq(installEvents.organizationId, organizationId), eq(installEvents.versionId, versionId)))
    .groupBy(installEvents.platform, installEvents.kind)
    .orderBy(installEvents.platform, installEvents.kind);
}

/**
 * Records one install or download through a link, with the version's counter and, for what
 * counts as an install, the link's counter that its install limit is checked against.
 */
export async function recordInstallEvent(
  db: Database,
  event: { organizationId: number; versionId: number; distributionId: number; platform: string },
  kind: "install" | "download",
  countsTowardLimit: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(installEvents).values({ ...event, kind });
    const counter = kind === "install" ? versions.installCount : versions.downloadCount;
    await tx
      .update(versions)
      .set({ [kind === "install" ? "installCount" : "downloadCount"]: sql`${counter} + 1` })
      .where(eq(versions.id, event.versionId));
    if (countsTowardLimit) {
      await tx
        .update(distributions)
        .set({ installsCount: sql`${distributions.installsCount} + 1` })
        .where(eq(distributions.id, event.distributionId));
    }
  });
}

export async function findAppWithOrganization(
  db: Database,
  applicationId: number,
): Promise<{ app: AppRow; organizationTitle: string } | null> {
  const [row] = await db
    .select({ app: applications, organizationTitle: organizations.title })
    .from(applications)
    .innerJoin(organizations, eq(organizations.id, applications.organizationId))
    .where(eq(applications.id, applicationId))
    .limit(1);
  return row ?? null;
}

/** The newest released build of each app of the project in one environment, by platform. */
export async function listNewestReleasedPerApp(
  db: Database,
  organizationId: number,
  projectId: number,
  environment: string,
): Promise<Array<{ app: AppRow; version: VersionRow }>> {
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

export async function findVersionOfApp(
  db: Database,
  organizationId: number,
  versionId: number,
): Promise<{ app: AppRow; version: VersionRow } | null> {
  const [row] = await db
    .select({ app: applications, version: versions })
    .from(versions)
    .innerJoin(applications, eq(applications.id, versions.applicationId))
    .where(and(eq(versions.organizationId, organizationId), eq(versions.id, versionId)))
    .limit(1);
  return row ?? null;
}

export async function isTesterOfApp(db: Database, applicationId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: testers.id })
    .from(testers)
    .where(and(eq(testers.applicationId, applicationId), eq(testers.email, email.toLowerCase())))
    .limit(1);
  return Boolean(row);
}
