import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { memberships, organizations, plans } from "../../platform/db/schema/index.ts";

/** Read-only view of the user's organizations with their plan and usage (owned by organizations). */
export async function listProfileOrganizations(db: Database, userId: number) {
  const rows = await db
    .select({ membership: memberships, organization: organizations, plan: plans })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(and(eq(memberships.userId, userId), isNull(organizations.deletingAt)))
    .orderBy(organizations.id);
  const orgIds = rows.map((row) => row.organization.id);
  const counts =
    orgIds.length === 0
      ? []
      : await db
          .select({ orgId: memberships.organizationId, users: count() })
          .from(memberships)
          .where(inArray(memberships.organizationId, orgIds))
          .groupBy(memberships.organizationId);
  const usersByOrg = new Map(counts.map((row) => [row.orgId, Number(row.users)]));
  return rows.map((row) => ({ ...row, usersCount: usersByOrg.get(row.organization.id) ?? 0 }));
}

/** Organizations the user owns that have anyone else in them. */
export async function countOwnedSharedOrganizations(db: Database, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.role, 1),
        sql`exists (select 1 from ${memberships} other where other.organization_id = ${memberships.organizationId} and other.user_id <> ${userId})`,
      ),
    );
  return Number(row?.value ?? 0);
}

/** The organizations the user owns alone; they go with the account. */
export async function listSoleOwnedOrganizationIds(db: Database, userId: number): Promise<number[]> {
  const rows = await db
    .select({ orgId: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 1)));
  return rows.map((row) => row.orgId);
}

export async function markOrganizationsDeleting(db: Database, orgIds: number[], now: Date) {
  if (orgIds.length === 0) return;
  await db.update(organizations).set({ deletingAt: now }).where(inArray(organizations.id, orgIds));
}
