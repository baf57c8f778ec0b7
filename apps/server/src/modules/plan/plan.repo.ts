import { asc, eq } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { plans } from "./plan.tables.ts";

export type PlanRow = typeof plans.$inferSelect;

export async function listPlans(db: Database): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.sortOrder), asc(plans.id));
}

export async function findPlansByIds(db: Database, ids: number[]): Promise<PlanRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(plans).where(anyOf(plans.id, ids));
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
