import { and, asc, eq, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { type OrderedList, selectSearchableList } from "../../platform/db/id-list.ts";
import { userDirectory } from "../users/users.views.ts";
import { projectMembers, projects } from "./application.tables.ts";

export type ProjectMemberRow = typeof projectMembers.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;

const memberView = {
  id: projectMembers.id,
  userId: projectMembers.userId,
  projectId: projectMembers.projectId,
  role: projectMembers.role,
  isAccessAllEnvs: projectMembers.isAccessAllEnvs,
  accessEnvs: projectMembers.accessEnvs,
  email: userDirectory.email,
  firstName: userDirectory.firstName,
  lastName: userDirectory.lastName,
  isActive: userDirectory.isActive,
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

/** Every member of the project, by address. */
export function listProjectMembers(db: Database, projectId: number) {
  return db
    .select(memberView)
    .from(projectMembers)
    .innerJoin(userDirectory, eq(userDirectory.userId, projectMembers.userId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(asc(userDirectory.email), asc(projectMembers.id));
}

/**
 * A project's members in list order (address, then id) with each person's folded search text:
 * kept per directory version, pages, counts and searches come from it.
 */
export function listProjectMemberSearchTexts(db: Database, projectId: number): Promise<OrderedList> {
  return selectSearchableList(
    db,
    db
      .select({ id: projectMembers.id, search: sql<string>`${userDirectory.searchText}`.as("search") })
      .from(projectMembers)
      .innerJoin(userDirectory, eq(userDirectory.userId, projectMembers.userId))
      .where(eq(projectMembers.projectId, projectId))
      .orderBy(asc(userDirectory.email), asc(projectMembers.id)),
  );
}

export async function findProjectMemberViews(db: Database, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select(memberView)
    .from(projectMembers)
    .innerJoin(userDirectory, eq(userDirectory.userId, projectMembers.userId))
    .where(anyOf(projectMembers.id, ids));
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

export async function listProjectIdsOfUsers(db: Database, organizationId: number, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: projectMembers.userId, projectId: projectMembers.projectId })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(and(eq(projects.organizationId, organizationId), anyOf(projectMembers.userId, userIds)))
    .orderBy(asc(projectMembers.projectId));
}

export async function findProjectIdsInOrganization(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), anyOf(projects.id, ids)));
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
      .where(and(eq(projectMembers.userId, userId), anyOf(projectMembers.projectId, removed)));
  }
  if (added.length > 0) {
    await db.insert(projectMembers).values(added.map((projectId) => ({ projectId, userId, role })));
  }
}

/** The project memberships of the given users in one project. */
export async function findProjectMembersOfUsers(db: Database, projectId: number, userIds?: number[]) {
  if (userIds && userIds.length === 0) return [];
  return db
    .select()
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        userIds ? anyOf(projectMembers.userId, userIds) : undefined,
      ),
    );
}

/** A person's project memberships with the project (personal data export). */
export async function listProjectMembershipsOfUser(db: Database, userId: number) {
  return db
    .select({
      projectId: projects.id,
      projectTitle: projects.title,
      organizationId: projects.organizationId,
      role: projectMembers.role,
      isAccessAllEnvs: projectMembers.isAccessAllEnvs,
      accessEnvs: projectMembers.accessEnvs,
      joinedAt: projectMembers.createdAt,
    })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(eq(projectMembers.userId, userId))
    .orderBy(asc(projectMembers.id));
}
