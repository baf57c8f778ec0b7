import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { organizations, plans } from "../../platform/db/schema/index.ts";

export type PlanRow = typeof plans.$inferSelect;

export async function listPlans(db: Database): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.sortOrder), asc(plans.id));
}

export async function findDefaultPlan(db: Database): Promise<PlanRow | null> {
  const [row] = await db
    .select()
    .from(plans)
    .where(eq(plans.isDefault, true))
    .orderBy(asc(plans.sortOrder), asc(plans.id))
    .limit(1);
  return row ?? null;
}

export async function findPlanByCode(db: Database, code: string): Promise<PlanRow | null> {
  const [row] = await db.select().from(plans).where(eq(plans.code, code)).limit(1);
  return row ?? null;
}

/** The counters kept on the organization row, its plan's limits and the member count. */
export async function findUsageRow(db: Database, organizationId: number) {
  const [row] = await db
    .select({
      organizationId: organizations.id,
      spaceUsedBytes: organizations.spaceUsedBytes,
      buildsCount: organizations.buildsCount,
      projectsCount: organizations.projectsCount,
      spaceLimitMb: plans.spaceLimitMb,
      buildLimit: plans.buildLimit,
      projectsLimit: plans.projectsLimit,
      userLimit: plans.userLimit,
      usersCount: sql<number>`(select count(*) from memberships mc where mc.organization_id = ${organizations.id})::int`,
    })
    .from(organizations)
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row ?? null;
}
