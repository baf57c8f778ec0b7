/**
 * Owns teams and their members. Every team read or write is scoped to the caller's
 * organizations; team managers look after the members of their own teams. Staff uses the
 * helpers at the bottom to keep a member's teams in step with the membership.
 */
import type { CreateTeamInput, OrgTeam, Team, UpdateTeamInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import { GenerationCache } from "../../platform/cache/generation-cache.ts";
import { keptRecords, type ListCaches, pageOfList } from "../../platform/cache/list-caches.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Caller, MemberContext, MembershipService } from "../organization/membership.service.ts";
import { can, type TeamAction } from "./team.policy.ts";
import {
  addUserToTeams,
  deleteTeam,
  findTeam,
  findTeamIdsInOrganization,
  findTeamsInOrder,
  insertTeam,
  listTeamIdsOfUsers,
  listTeamMembers,
  listTeammateIds,
  listTeamSearchTexts,
  listTeams,
  removeUserFromTeams,
  replaceTeamMembers,
  type TeamRow,
  updateTeamTitle,
} from "./team.repo.ts";

function assertAllowed(member: MemberContext, action: TeamAction, inTeam = false): void {
  if (!can(member, action, { inTeam })) throw AppError.forbidden();
}

/** An organization and the directory version its kept lists are valid for. */
type OrganizationVersions = Pick<MemberContext, "organizationId" | "directoryVersion">;

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}

export class TeamService {
  private readonly db: Database;
  private readonly membership: MembershipService;
  private readonly lists: ListCaches;
  /** Teams as shown, per directory version (see list()). */
  private readonly records = new GenerationCache<Team>({ maxEntries: 20_000, maxAgeMs: 10 * 60 * 1000 });

  constructor(deps: { db: Database; membership: MembershipService; lists: ListCaches }) {
    this.db = deps.db;
    this.membership = deps.membership;
    this.lists = deps.lists;
  }

  async list(
    caller: Caller,
    filter: { org?: number; s?: string },
    params: PageParams,
  ): Promise<{ count: number; results: Team[] }> {
    if (filter.org !== undefined) {
      const { member, count, ids } = await this.pageInOrganization(caller, filter.org, filter.s, params);
      return { count, results: await this.keptTeams(member, ids) };
    }
    const page = await this.listRows(caller, filter, params);
    return { count: page.count, results: await this.presentTeams(page.rows) };
  }

  async listWithUsers(
    actorUserId: number,
    filter: { org?: number },
    params: PageParams,
  ): Promise<{ count: number; results: OrgTeam[] }> {
    const page = await this.listRows(actorUserId, filter, params);
    return { count: page.count, results: await this.presentOrgTeams(page.rows) };
  }

  async get(actorUserId: number, teamId: number): Promise<Team> {
    const { team } = await this.getVisibleTeam(actorUserId, teamId);
    const [presented] = await this.presentTeams([team]);
    if (!presented) throw AppError.notFound();
    return presented;
  }

  async getWithUsers(actorUserId: number, teamId: number): Promise<OrgTeam> {
    const { team } = await this.getVisibleTeam(actorUserId, teamId);
    const [presented] = await this.presentOrgTeams([team]);
    if (!presented) throw AppError.notFound();
    return presented;
  }

  async create(actorUserId: number, input: CreateTeamInput): Promise<Team> {
    const member = await this.membership.getMembership(actorUserId, input.organization);
    assertAllowed(member, "team:create");
    const userIds = unique(input.users);
    const teamId = await this.db.transaction(async (tx) => {
      await this.assertMembers(input.organization, userIds, tx);
      const id = await insertTeam(tx, input.organization, input.title);
      await replaceTeamMembers(tx, input.organization, id, userIds);
      return id;
    });
    return this.get(actorUserId, teamId);
  }

  async update(actorUserId: number, teamId: number, input: UpdateTeamInput): Promise<Team> {
    const { team, member } = await this.getVisibleTeam(actorUserId, teamId);
    if (input.organization !== undefined && input.organization !== team.organizationId) {
      throw AppError.validation({ organization: ["A team cannot move to another organization."] });
    }
    const currentMembers = await listTeamMembers(this.db, team.organizationId, [team.id]);
    const inTeam = currentMembers.some((row) => row.userId === actorUserId);
    assertAllowed(member, "team:update-members", inTeam);
    if (input.title !== team.title) assertAllowed(member, "team:rename", inTeam);
    const userIds = unique(input.users);
    await this.db.transaction(async (tx) => {
      await this.assertMembers(team.organizationId, userIds, tx);
      await updateTeamTitle(tx, team.organizationId, team.id, input.title);
      await replaceTeamMembers(tx, team.organizationId, team.id, userIds);
    });
    return this.get(actorUserId, teamId);
  }

  async delete(actorUserId: number, teamId: number): Promise<void> {
    const { team, member } = await this.getVisibleTeam(actorUserId, teamId);
    assertAllowed(member, "team:delete");
    await deleteTeam(this.db, team.organizationId, team.id);
  }

  // --- for the staff module -------------------------------------------------------------

  /** Team ids per user within one organization. */
  async teamIdsByUser(
    organizationId: number,
    userIds: number[],
    db = this.db,
  ): Promise<Map<number, number[]>> {
    const byUser = new Map<number, number[]>(userIds.map((id) => [id, []]));
    for (const row of await listTeamIdsOfUsers(db, organizationId, userIds)) {
      byUser.get(row.userId)?.push(row.teamId);
    }
    return byUser;
  }

  /** Those of `teamIds` that are teams of the organization. */
  async teamsInOrganization(organizationId: number, teamIds: number[], db = this.db): Promise<number[]> {
    return findTeamIdsInOrganization(db, organizationId, unique(teamIds));
  }

  async assertTeamsInOrganization(organizationId: number, teamIds: number[], db = this.db): Promise<void> {
    const found = new Set(await this.teamsInOrganization(organizationId, teamIds, db));
    const missing = unique(teamIds).filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw AppError.validation({ teams: [`Unknown teams in this organization: ${missing.join(", ")}.`] });
    }
  }

  async setUserTeams(organizationId: number, userId: number, teamIds: number[], tx: Database): Promise<void> {
    await removeUserFromTeams(tx, organizationId, userId);
    await addUserToTeams(tx, userId, unique(teamIds));
  }

  async removeUserFromTeams(organizationId: number, userId: number, tx: Database): Promise<void> {
    await removeUserFromTeams(tx, organizationId, userId);
  }

  async listTeammateIds(organizationId: number, userId: number): Promise<number[]> {
    return listTeammateIds(this.db, organizationId, userId);
  }

  /** The first `limit` teams whose title holds `search` (all teams without one), by title. */
  async searchTeams(organization: OrganizationVersions, search: string | undefined, limit: number) {
    const { ids } = await this.pageTeamIds(organization, search, { offset: 0, limit });
    return (await this.keptTeams(organization, ids)).map((team) => ({ id: team.id, title: team.title }));
  }

  // --- internals ------------------------------------------------------------------------

  /** One organization's teams, kept per its directory version (pages and searches in memory). */
  private pageTeamIds(
    { organizationId, directoryVersion }: OrganizationVersions,
    search: string | undefined,
    page: { offset: number; limit: number },
  ) {
    return pageOfList(
      this.lists,
      {
        key: `teams ${organizationId}`,
        generation: directoryVersion,
        load: () => listTeamSearchTexts(this.db, organizationId),
      },
      search,
      page,
    );
  }

  /** A page of the teams of `org` (404 unless the caller is a member), with that membership. */
  private async pageInOrganization(
    caller: Caller,
    org: number,
    search: string | undefined,
    params: PageParams,
  ) {
    const member = await this.membership.getMembership(caller, org);
    const page = await this.pageTeamIds(member, search, { offset: params.offset, limit: params.pageSize });
    return { member, ...page };
  }

  /** Teams as shown (with their member ids), in the order of `ids`, kept per directory version. */
  private keptTeams(
    { organizationId, directoryVersion }: OrganizationVersions,
    ids: number[],
  ): Promise<Team[]> {
    return keptRecords(
      this.records,
      directoryVersion,
      ids,
      (id) => `team ${id}`,
      async (missing) =>
        (await this.presentTeams(await findTeamsInOrder(this.db, organizationId, missing))).map((record) => ({
          id: record.id,
          record,
        })),
    );
  }

  private async listRows(caller: Caller, filter: { org?: number; s?: string }, params: PageParams) {
    if (filter.org !== undefined) {
      const { member, count, ids } = await this.pageInOrganization(caller, filter.org, filter.s, params);
      return { count, rows: await findTeamsInOrder(this.db, member.organizationId, ids) };
    }
    const organizationIds = (await this.membership.listMemberships(caller)).map((row) => row.organizationId);
    return listTeams(this.db, {
      organizationIds,
      search: filter.s || undefined,
      limit: params.pageSize,
      offset: params.offset,
    });
  }

  private async getVisibleTeam(actorUserId: number, teamId: number) {
    const memberships = await this.membership.listMemberships(actorUserId);
    const team = await findTeam(
      this.db,
      memberships.map((row) => row.organizationId),
      teamId,
    );
    const member = team && memberships.find((row) => row.organizationId === team.organizationId);
    if (!team || !member) throw AppError.notFound();
    assertAllowed(member, "team:read");
    return { team, member };
  }

  private async assertMembers(organizationId: number, userIds: number[], db: Database): Promise<void> {
    const found = await this.membership.filterMembers(organizationId, userIds, db);
    const missing = userIds.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw AppError.validation({
        users: [`These users are not members of the organization: ${missing.join(", ")}.`],
      });
    }
  }

  private async presentTeams(rows: TeamRow[]): Promise<Team[]> {
    const members = await this.membersOf(rows);
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      organization: row.organizationId,
      users: (members.get(row.id) ?? []).map((user) => user.userId).sort((a, b) => a - b),
    }));
  }

  private async presentOrgTeams(rows: TeamRow[]): Promise<OrgTeam[]> {
    const members = await this.membersOf(rows);
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      organization: row.organizationId,
      users: (members.get(row.id) ?? []).map((user) => ({
        id: user.userId,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
      })),
    }));
  }

  private async membersOf(rows: TeamRow[]) {
    const byTeam = new Map<number, Awaited<ReturnType<typeof listTeamMembers>>>();
    const byOrganization = new Map<number, number[]>();
    for (const row of rows)
      byOrganization.set(row.organizationId, [...(byOrganization.get(row.organizationId) ?? []), row.id]);
    for (const [organizationId, teamIds] of byOrganization) {
      for (const member of await listTeamMembers(this.db, organizationId, teamIds)) {
        byTeam.set(member.teamId, [...(byTeam.get(member.teamId) ?? []), member]);
      }
    }
    return byTeam;
  }
}
