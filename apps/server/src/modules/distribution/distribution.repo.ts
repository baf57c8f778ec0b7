import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { distributions, installEvents } from "./distribution.tables.ts";

export type DistributionRow = typeof distributions.$inferSelect;
export type NewDistribution = typeof distributions.$inferInsert;

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

export async function insertDistribution(db: Database, values: NewDistribution): Promise<DistributionRow> {
  const [row] = await db.insert(distributions).values(values).returning();
  if (!row) throw new Error("distribution insert failed");
  return row;
}

export async function updateDistribution(
  db: Database,
  organizationId: number,
  id: number,
  values: Partial<Pick<DistributionRow, "access" | "passwordHash" | "expiresAt" | "installLimit" | "name">>,
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
    .where(anyOf(installEvents.distributionId, ids))
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

/** Records one install or download of a version through a link (for the counts shown). */
export async function insertInstallEvent(
  db: Database,
  event: { organizationId: number; versionId: number; distributionId: number; platform: string },
  kind: "install" | "download",
): Promise<void> {
  const { organizationId, versionId, distributionId, platform } = event;
  await db.insert(installEvents).values({ organizationId, versionId, distributionId, platform, kind });
}
