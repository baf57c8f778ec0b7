import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { foldedContains } from "../../platform/db/text-search.ts";
import {
  permissionGroupMembers,
  permissionGroupProjects,
  permissionGroups,
} from "./permission-group.tables.ts";

export type PermissionGroupRow = typeof permissionGroups.$inferSelect;

/** True when one of the user's permission groups grants the project (an SQL condition). */
export function grantedByGroup(projectId: SQL, userId: number): SQL {
  return sql`exists (select 1 from ${permissionGroupProjects} gp
    join ${permissionGroupMembers} gm on gm.group_id = gp.group_id
    where gp.project_id = ${projectId} and gm.user_id = ${userId})`;
}

export async function isGrantedByGroup(db: Database, projectId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ groupId: permissionGroupProjects.groupId })
    .from(permissionGroupProjects)
    .innerJoin(permissionGroupMembers, eq(permissionGroupMembers.groupId, permissionGroupProjects.groupId))
    .where(and(eq(permissionGroupProjects.projectId, projectId), eq(permissionGroupMembers.userId, userId)))
    .limit(1);
  return row !== undefined;
}

export async function listPermissionGroups(
  db: Database,
  organizationId: number,
  filter: { search?: string; limit: number; offset: number },
): Promise<{ count: number; rows: PermissionGroupRow[] }> {
  const where = and(
    eq(permissionGroups.organizationId, organizationId),
    filter.search ? foldedContains(permissionGroups.title, filter.search) : undefined,
  );
  const [total] = await db.select({ value: count() }).from(permissionGroups).where(where);
  const rows = await db
    .select()
    .from(permissionGroups)
    .where(where)
    .orderBy(asc(permissionGroups.title), asc(permissionGroups.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: total?.value ?? 0, rows };
}

/** A group among the given organizations (the caller's). */
export async function findPermissionGroup(db: Database, organizationIds: number[], id: number) {
  if (organizationIds.length === 0) return null;
  const [row] = await db
    .select()
    .from(permissionGroups)
    .where(and(eq(permissionGroups.id, id), anyOf(permissionGroups.organizationId, organizationIds)))
    .limit(1);
  return row ?? null;
}

export async function findPermissionGroupsOf(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(permissionGroups)
    .where(and(eq(permissionGroups.organizationId, organizationId), anyOf(permissionGroups.id, ids)));
}

/** A title already used in the organization, compared without case. */
export async function findPermissionGroupByTitle(db: Database, organizationId: number, title: string) {
  const [row] = await db
    .select({ id: permissionGroups.id })
    .from(permissionGroups)
    .where(
      and(
        eq(permissionGroups.organizationId, organizationId),
        sql`lower(${permissionGroups.title}) = lower(${title})`,
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertPermissionGroup(db: Database, row: { organizationId: number; title: string }) {
  const [inserted] = await db.insert(permissionGroups).values(row).returning();
  return inserted as PermissionGroupRow;
}

export async function renamePermissionGroup(db: Database, id: number, title: string) {
  await db.update(permissionGroups).set({ title }).where(eq(permissionGroups.id, id));
}

export async function deletePermissionGroup(db: Database, id: number) {
  await db.delete(permissionGroups).where(eq(permissionGroups.id, id));
}

export async function replaceGroupMembers(db: Database, groupId: number, userIds: number[]) {
  await db.delete(permissionGroupMembers).where(eq(permissionGroupMembers.groupId, groupId));
  if (userIds.length > 0) {
    await db.insert(permissionGroupMembers).values(userIds.map((userId) => ({ groupId, userId })));
  }
}

export async function replaceGroupProjects(db: Database, groupId: number, projectIds: number[]) {
  await db.delete(permissionGroupProjects).where(eq(permissionGroupProjects.groupId, groupId));
  if (projectIds.length > 0) {
    await db.insert(permissionGroupProjects).values(projectIds.map((projectId) => ({ groupId, projectId })));
  }
}

/** Puts the user into the groups; groups the user is already in stay as they are. */
export async function addUserToGroups(db: Database, userId: number, groupIds: number[]) {
  if (groupIds.length === 0) return;
  await db
    .insert(permissionGroupMembers)
    .values(groupIds.map((groupId) => ({ groupId, userId })))
    .onConflictDoNothing();
}

/** Members and projects of each group, by group id. */
export async function groupContents(db: Database, groupIds: number[]) {
  const members = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  const granted = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return { members, granted };
  const memberRows = await db
    .select()
    .from(permissionGroupMembers)
    .where(anyOf(permissionGroupMembers.groupId, groupIds))
    .orderBy(asc(permissionGroupMembers.userId));
  for (const row of memberRows) members.get(row.groupId)?.push(row.userId);
  const projectRows = await db
    .select()
    .from(permissionGroupProjects)
    .where(anyOf(permissionGroupProjects.groupId, groupIds))
    .orderBy(asc(permissionGroupProjects.projectId));
  for (const row of projectRows) granted.get(row.groupId)?.push(row.projectId);
  return { members, granted };
}

/** The ids of the user's groups in the organization. */
export async function groupsOfUser(db: Database, organizationId: number, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: permissionGroups.id })
    .from(permissionGroupMembers)
    .innerJoin(permissionGroups, eq(permissionGroups.id, permissionGroupMembers.groupId))
    .where(
      and(eq(permissionGroups.organizationId, organizationId), eq(permissionGroupMembers.userId, userId)),
    )
    .orderBy(asc(permissionGroups.id));
  return rows.map((row) => row.id);
}
