import { and, asc, count, eq, ilike, inArray, or } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { likePattern } from "../../platform/db/like-pattern.ts";
import { memberships, projectMembers, projects, users } from "../../platform/db/schema/index.ts";

export type ProjectMemberRow = typeof projectMembers.$inferSelect;

const memberView = {
  id: projectMembers.id,
  userId: projectMembers.userId,
  projectId: projectMembers.projectId,
  role: projectMembers.role,
  isAccessAllEnvs: projectMembers.isAccessAllEnvs,
  accessEnvs: projectMembers.accessEnvs,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
};
export type ProjectMemberView = Awaited<ReturnType<typeof findProjectMemberViews>>[number];

export async function findProject(db: Database, projectId: number) {
  const [row] = await db.select().from(projects).where(eq(projects.id, projectId)).limit(1);
  return row ?? null;
}

export async function findProjectMember(db: Database, id: number): Promise<ProjectMemberRow | null> {
  const [row] = await db.select().from(projectMembers).where(eq(projectMembers.id, id)).limit(1);
  return row ?? null;
}

export async function findProjectMemberByUser(db: Database, projectId: number, userId: number) {
  const [row] = await db
    .select()
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function listProjectMembers(
  db: Database,
  projectId: number,
  search: string | undefined,
  page?: { offset: number; limit: number },
) {
  const pattern = search ? likePattern(search) : null;
  const where = and(
    eq(projectMembers.projectId, projectId),
    pattern
      ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern))
      : undefined,
  );
  const [total] = await db
    .select({ n: count() })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(where);
  const query = db
    .select(memberView)
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(where)
    .orderBy(asc(users.email), asc(projectMembers.id));
  const rows = page ? await query.offset(page.offset).limit(page.limit) : await query;
  return { count: total?.n ?? 0, rows };
}

export async function findProjectMemberViews(db: Database, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select(memberView)
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(inArray(projectMembers.id, ids));
}

/** Administrators (roles 1 and 2) of the organization: they reach every project. */
export async function listOrganizationAdmins(db: Database, organizationId: number) {
  return db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.role, [1, 2])))
    .orderBy(asc(memberships.role), asc(users.email));
}

/** Organization roles of the given users. */
export async function findOrganizationRoles(db: Database, organizationId: number, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, number>();
  const rows = await db
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.userId, userIds)));
  return new Map(rows.map((row) => [row.userId, row.role]));
}

export async function insertProjectMember(
  db: Database,
  values: { projectId: number; userId: number; role: number; isAccessAllEnvs: boolean; accessEnvs: string[] },
) {
  const [row] = await db.insert(projectMembers).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function updateProjectMember(
  db: Database,
  id: number,
  values: { role: number; isAccessAllEnvs: boolean; accessEnvs: string[] },
) {
  await db.update(projectMembers).set(values).where(eq(projectMembers.id, id));
}

export async function deleteProjectMember(db: Database, id: number) {
  await db.delete(projectMembers).where(eq(projectMembers.id, id));
}
