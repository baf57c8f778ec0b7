import { and, asc, count, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { memberships, organizations, plans, users } from "../../platform/db/schema/index.ts";
import { liveMembershipCondition } from "./membership.repo.ts";

const organizationView = {
  id: organizations.id,
  title: organizations.title,
  subdomain: organizations.subdomain,
  logoKey: organizations.logoKey,
  sdkKey: organizations.sdkKey,
  createdAt: organizations.createdAt,
  role: memberships.role,
  planId: plans.id,
  planCode: plans.code,
  planTitle: plans.title,
  userLimit: plans.userLimit,
  usersCount: sql<number>`(select count(*) from memberships mc where mc.organization_id = ${organizations.id})::int`,
};

export type OrganizationView = NonNullable<Awaited<ReturnType<typeof findOrganizationOfUser>>>;

export async function insertOrganization(
  db: Database,
  row: { title: string; subdomain: string; planId: number; sdkKey: string },
) {
  const [created] = await db.insert(organizations).values(row).returning();
  if (!created) throw new Error("organization insert returned no row");
  return created;
}

export async function insertOwnerMembership(db: Database, organizationId: number, userId: number) {
  await db.insert(memberships).values({ organizationId, userId, role: 1 });
}

/** The organizations a user belongs to, as that user sees them. */
export async function listOrganizationsOfUser(
  db: Database,
  userId: number,
  page: { limit: number; offset: number },
) {
  const where = liveMembershipCondition(userId);
  const [total] = await db
    .select({ value: count() })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(where);
  const rows = await db
    .select(organizationView)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(where)
    .orderBy(asc(organizations.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}

export async function findOrganizationOfUser(db: Database, organizationId: number, userId: number) {
  const [row] = await db
    .select(organizationView)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(liveMembershipCondition(userId, organizationId))
    .limit(1);
  return row ?? null;
}

export async function findOrganizationById(db: Database, organizationId: number) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId)).limit(1);
  return row ?? null;
}

/** Serializes changes that count or limit an organization's members (SELECT ... FOR UPDATE). */
export async function lockOrganization(db: Database, organizationId: number) {
  const [row] = await db
    .select({ id: organizations.id, planId: organizations.planId })
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), isNull(organizations.deletingAt)))
    .for("update");
  return row ?? null;
}

export async function updateOrganization(
  db: Database,
  organizationId: number,
  values: Partial<{ title: string; subdomain: string; logoKey: string | null; sdkKey: string }>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.update(organizations).set(values).where(eq(organizations.id, organizationId));
}

/** Takes the once-a-day limit notice slot; false when one was sent in the last 24 hours. */
export async function claimLimitNotice(db: Database, organizationId: number, now: Date): Promise<boolean> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const claimed = await db
    .update(organizations)
    .set({ limitNotifiedAt: now })
    .where(
      and(
        eq(organizations.id, organizationId),
        or(isNull(organizations.limitNotifiedAt), lt(organizations.limitNotifiedAt, dayAgo)),
      ),
    )
    .returning({ id: organizations.id });
  return claimed.length > 0;
}

export async function markOrganizationDeleting(db: Database, organizationId: number, now: Date) {
  await db.update(organizations).set({ deletingAt: now }).where(eq(organizations.id, organizationId));
}

/** Memberships, teams and projects go with it (foreign keys cascade). */
export async function deleteOrganizationRow(db: Database, organizationId: number): Promise<void> {
  await db.delete(organizations).where(eq(organizations.id, organizationId));
}

export async function findOwner(db: Database, organizationId: number) {
  const [row] = await db
    .select({ userId: users.id, email: users.email, firstName: users.firstName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 1)))
    .limit(1);
  return row ?? null;
}

export async function findMemberWithAccount(db: Database, organizationId: number, userId: number) {
  const [row] = await db
    .select({ membershipId: memberships.id, role: memberships.role, isActive: users.isActive })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function setMemberRole(db: Database, organizationId: number, userId: number, role: number) {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}
