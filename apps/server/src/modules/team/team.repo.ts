import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { arrangeByIds, selectSearchableList } from "../../platform/db/id-list.ts";
import { searchMatches } from "../../platform/db/text-search.ts";
import { userDirectory } from "../users/users.views.ts";
import { teamMembers, teams } from "./team.tables.ts";

export type TeamRow = { id: number; title: string; organizationId: number };
const teamColumns = { id: teams.id, title: teams.title, organizationId: teams.organizationId };

export async function listTeams(
  db: Database,
  filter: { organizationIds: number[]; search?: string; limit: number; offset: number },
): Promise<{ count: number; rows: TeamRow[] }> {
  if (filter.organizationIds.length === 0) return { count: 0, rows: [] };
  const where = and(
    anyOf(teams.organizationId, filter.organizationIds),
    filter.search ? searchMatches(teams.searchText, filter.search) : undefined,
  );
  const [total] = await db.select({ value: count() }).from(teams).where(where);
  const rows = await db
    .select(teamColumns)
    .from(teams)
    .where(where)
    .orderBy(asc(teams.title), asc(teams.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: total?.value ?? 0, rows };
}

/** An organization's teams by title, with their folded search texts (see pageOfList). */
export function listTeamSearchTexts(db: Database, organizationId: number) {
  return selectSearchableList(
    db,
    db
      .select({ id: teams.id, search: sql<string>`${teams.searchText}`.as("search") })
      .from(teams)
      .where(eq(teams.organizationId, organizationId))
      .orderBy(asc(teams.title), asc(teams.id)),
  );
}

/** The organization's teams with these ids, in the order of `ids`. */
export async function findTeamsInOrder(
  db: Database,
  organizationId: number,
  ids: number[],
): Promise<TeamRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(teamColumns)
    .from(teams)
    .where(and(eq(teams.organizationId, organizationId), anyOf(teams.id, ids)));
  return arrangeByIds(ids, rows);
}

export async function findTeam(db: Database, organizationIds: number[], teamId: number) {
  if (organizationIds.length === 0) return null;
  const [row] = await db
    .select(teamColumns)
    .from(teams)
    .where(and(eq(teams.id, teamId), anyOf(teams.organizationId, organizationIds)))
    .limit(1);
  return row ?? null;
}

export async function listTeamMembers(db: Database, organizationId: number, teamIds: number[]) {
  if (teamIds.length === 0) return [];
  return db
    .select({
      teamId: teamMembers.teamId,
      userId: userDirectory.userId,
      email: userDirectory.email,
      firstName: userDirectory.firstName,
      lastName: userDirectory.lastName,
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .innerJoin(userDirectory, eq(userDirectory.userId, teamMembers.userId))
    .where(and(eq(teams.organizationId, organizationId), anyOf(teamMembers.teamId, teamIds)))
    .orderBy(asc(userDirectory.email));
}

export async function insertTeam(db: Database, organizationId: number, title: string): Promise<number> {
  const [row] = await db.insert(teams).values({ organizationId, title }).returning({ id: teams.id });
  if (!row) throw new Error("team insert returned no row");
  return row.id;
}

export async function updateTeamTitle(db: Database, organizationId: number, teamId: number, title: string) {
  await db
    .update(teams)
    .set({ title })
    .where(and(eq(teams.id, teamId), eq(teams.organizationId, organizationId)));
}

export async function deleteTeam(db: Database, organizationId: number, teamId: number) {
  await db.delete(teams).where(and(eq(teams.id, teamId), eq(teams.organizationId, organizationId)));
}

export async function replaceTeamMembers(
  db: Database,
  organizationId: number,
  teamId: number,
  userIds: number[],
) {
  const [owned] = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.organizationId, organizationId)));
  if (!owned) return;
  await db.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
  if (userIds.length > 0) {
    await db.insert(teamMembers).values(userIds.map((userId) => ({ teamId, userId })));
  }
}

/** The subset of `teamIds` that belong to the organization. */
export async function findTeamIdsInOrganization(db: Database, organizationId: number, teamIds: number[]) {
  if (teamIds.length === 0) return [];
  const rows = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.organizationId, organizationId), anyOf(teams.id, teamIds)));
  return rows.map((row) => row.id);
}

export async function listTeamIdsOfUsers(db: Database, organizationId: number, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: teamMembers.userId, teamId: teamMembers.teamId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teams.organizationId, organizationId), anyOf(teamMembers.userId, userIds)))
    .orderBy(asc(teamMembers.teamId));
}

export async function removeUserFromTeams(db: Database, organizationId: number, userId: number) {
  await db
    .delete(teamMembers)
    .where(
      and(
        eq(teamMembers.userId, userId),
        inArray(
          teamMembers.teamId,
          db.select({ id: teams.id }).from(teams).where(eq(teams.organizationId, organizationId)),
        ),
      ),
    );
}

export async function addUserToTeams(db: Database, userId: number, teamIds: number[]) {
  if (teamIds.length === 0) return;
  await db
    .insert(teamMembers)
    .values(teamIds.map((teamId) => ({ teamId, userId })))
    .onConflictDoNothing();
}

/** Users who share at least one team of the organization with `userId` (not counting them). */
export async function listTeammateIds(db: Database, organizationId: number, userId: number) {
  const rows = await db
    .selectDistinct({ userId: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(
      and(
        eq(teams.organizationId, organizationId),
        ne(teamMembers.userId, userId),
        sql`${teamMembers.teamId} in (select tm.team_id from team_members tm where tm.user_id = ${userId})`,
      ),
    );
  return rows.map((row) => row.userId);
}

/** A person's teams, with their organization (personal data export). */
export async function listTeamsOfUser(db: Database, userId: number) {
  return db
    .select({ teamId: teams.id, teamTitle: teams.title, organizationId: teams.organizationId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teams.id));
}
