import { and, asc, count, eq, ilike, inArray, or } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { likePattern } from "../../platform/db/like-pattern.ts";
import { memberships, projectMembers, projects, users } from "../../platform/db/schema/index.ts";

const membershipColumns = {
  id: memberships.id,
  userId: memberships.userId,
  organizationId: memberships.organizationId,
  role: memberships.role,
  createdAt: memberships.createdAt,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
  twoFactorEnabled: users.twoFactorEnabled,
};

function searchCondition(search?: string) {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern));
}

export async function listMembershipRows(
  db: Database,
  organizationId: number,
  filter: { onlyUserIds?: number[]; search?: string; limit: number; offset: number },
) {
  const where = and(
    eq(memberships.organizationId, organizationId),
    filter.onlyUserIds ? inArray(memberships.userId, filter.onlyUserIds) : undefined,
    searchCondition(filter.search),
  );
  const [total] = await db
    .select({ value: count() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where);
  const rows = await db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where)
    .orderBy(asc(memberships.role), asc(users.email))
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: total?.value ?? 0, rows };
}

export type MembershipRow = Awaited<ReturnType<typeof listMembershipRows>>["rows"][number];

/** A membership by id, only among the given organizations (the caller's). */
export async function findMembershipRow(db: Database, organizationIds: number[], membershipId: number) {
  if (organizationIds.length === 0) return null;
  const [row] = await db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.id, membershipId), inArray(memberships.organizationId, organizationIds)))
    .limit(1);
  return row ?? null;
}

export async function findMembershipOfUser(db: Database, organizationId: number, userId: number) {
  const [row] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function insertMembership(
  db: Database,
  row: { organizationId: number; userId: number; role: number; invitedBy: number },
): Promise<number> {
  const [created] = await db.insert(memberships).values(row).returning({ id: memberships.id });
  if (!created) throw new Error("membership insert returned no row");
  return created.id;
}

export async function updateMembershipRole(db: Database, organizationId: number, id: number, role: number) {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.id, id), eq(memberships.organizationId, organizationId)));
}

export async function deleteMembership(db: Database, organizationId: number, id: number) {
  await db
    .delete(memberships)
    .where(and(eq(memberships.id, id), eq(memberships.organizationId, organizationId)));
}

export async function listProjectIdsOfUsers(db: Database, organizationId: number, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: projectMembers.userId, projectId: projectMembers.projectId })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(and(eq(projects.organizationId, organizationId), inArray(projectMembers.userId, userIds)))
    .orderBy(asc(projectMembers.projectId));
}

export async function findProjectIdsInOrganization(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), inArray(projects.id, ids)));
  return rows.map((row) => row.id);
}

/** Makes `projectIds` the user's projects in the organization; kept ones keep their settings. */
export async function replaceUserProjects(
  db: Database,
  organizationId: number,
  userId: number,
  projectIds: number[],
  role: number,
) {
  const current = await listProjectIdsOfUsers(db, organizationId, [userId]);
  const currentIds = new Set(current.map((row) => row.projectId));
  const wanted = new Set(projectIds);
  const removed = [...currentIds].filter((id) => !wanted.has(id));
  const added = [...wanted].filter((id) => !currentIds.has(id));
  if (removed.length > 0) {
    await db
      .delete(projectMembers)
      .where(and(eq(projectMembers.userId, userId), inArray(projectMembers.projectId, removed)));
  }
  if (added.length > 0) {
    await db.insert(projectMembers).values(added.map((projectId) => ({ projectId, userId, role })));
  }
}

export async function listOrgUserRows(
  db: Database,
  organizationId: number,
  filter: { search?: string; limit: number; offset: number },
) {
  const where = and(eq(memberships.organizationId, organizationId), searchCondition(filter.search));
  const [total] = await db
    .select({ value: count() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where);
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where)
    .orderBy(asc(users.email))
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: total?.value ?? 0, rows };
}
