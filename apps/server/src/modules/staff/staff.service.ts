/**
 * Owns memberships (the spec's "users in organizations"): who is in an organization with
 * which role, teams and projects, and changes to them. People join by accepting an invitation
 * (staff-invitations.service.ts).
 */
import type { Membership, OrganizationSelector, PatchMembershipInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { GenerationCache } from "../../platform/cache/generation-cache.ts";
import { keptRecords } from "../../platform/cache/list-caches.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ProjectMembershipService } from "../application/project-membership.service.ts";
import type {
  Caller,
  MemberContext,
  MemberRow,
  MembershipService,
} from "../organization/membership.service.ts";
import { isAdminRole, roles } from "../organization/roles.ts";
import type { TeamService } from "../team/team.service.ts";
import type { UserService } from "../users/user.service.ts";
import { can, type StaffAction } from "./staff.policy.ts";

export interface StaffDeps {
  db: Database;
  membership: MembershipService;
  teams: TeamService;
  projects: ProjectMembershipService;
  users: UserService;
  /** Members as shown, per directory version (see list()). */
  records: GenerationCache<Membership>;
}

export const alreadyMember = () =>
  AppError.validation({ userid: ["This user is already a member of the organization."] });

export class StaffService {
  constructor(private readonly deps: StaffDeps) {}

  async list(
    caller: Caller,
    filter: OrganizationSelector & { s?: string },
    params: PageParams,
  ): Promise<{ count: number; results: Membership[] }> {
    const member = await this.deps.membership.resolveMembership(caller, filter);
    const { organizationId, directoryVersion } = member;
    const { count, ids } = await this.deps.membership.pageMemberIds(
      member,
      { onlyUserIds: await this.visibleUserIds(member), order: "role" },
      filter.s || undefined,
      { offset: params.offset, limit: params.pageSize },
    );
    // A member as shown (with their team and project ids) is the same for every viewer, and the
    // directory version moves with all of it: kept per version, a page seen before reads nothing.
    const results = await keptRecords(
      this.deps.records,
      directoryVersion,
      ids,
      (id) => `member ${id}`,
      async (missing) => {
        const rows = await this.deps.membership.findMembersInOrder(organizationId, missing);
        return (await this.present(organizationId, rows)).map((record) => ({ id: record.id, record }));
      },
    );
    return { count, results };
  }

  async get(actorUserId: number, membershipId: number): Promise<Membership> {
    const { row } = await this.getVisible(actorUserId, membershipId);
    const [presented] = await this.present(row.organizationId, [row]);
    if (!presented) throw AppError.notFound();
    return presented;
  }

  async update(actorUserId: number, membershipId: number, input: PatchMembershipInput): Promise<Membership> {
    const { row, actor } = await this.getVisible(actorUserId, membershipId);
    assertAllowed(actor, "staff:update", { targetRole: row.role, isSelf: row.userId === actorUserId });
    if (row.role === roles.owner && input.role !== undefined) {
      throw AppError.validation({ role: ["The owner's role changes only by transferring ownership."] });
    }
    const { db, teams, projects, membership, users } = this.deps;
    const organizationId = row.organizationId;
    await db.transaction(async (tx) => {
      if (input.teams) await teams.assertTeamsInOrganization(organizationId, input.teams, tx);
      if (input.projects) await projects.assertProjectsInOrganization(organizationId, input.projects, tx);
      const role = row.role === roles.owner ? roles.owner : (input.role ?? row.role);
      if (role !== row.role) await membership.changeRole(organizationId, row.id, role, tx);
      if (input.teams) await teams.setUserTeams(organizationId, row.userId, input.teams, tx);
      if (input.projects)
        await projects.replaceUserProjects(organizationId, row.userId, input.projects, role, tx);
      // Names belong to the person; an admin may fill them in only until the invitation is accepted.
      if (!row.isActive && (input.first_name !== undefined || input.last_name !== undefined)) {
        await users.update(
          row.userId,
          {
            ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
            ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
          },
          tx,
        );
      }
    });
    return this.get(actorUserId, membershipId);
  }

  /** Removes a member with their team and project places; the owner cannot be removed. */
  async remove(actorUserId: number, membershipId: number): Promise<void> {
    const { row, actor } = await this.getVisible(actorUserId, membershipId);
    if (row.role === roles.owner) {
      throw AppError.badRequest("The owner cannot be removed; transfer ownership first.");
    }
    assertAllowed(actor, "staff:remove", { targetRole: row.role, isSelf: row.userId === actorUserId });
    await this.deps.db.transaction(async (tx) => {
      await this.deps.teams.removeUserFromTeams(row.organizationId, row.userId, tx);
      await this.deps.projects.replaceUserProjects(row.organizationId, row.userId, [], row.role, tx);
      await this.deps.membership.removeMember(row.organizationId, row.id, tx);
    });
  }

  /** A membership the caller may see, with the caller's own membership in that organization. */
  async getVisible(
    actorUserId: number,
    membershipId: number,
  ): Promise<{ row: MemberRow; actor: MemberContext }> {
    const memberships = await this.deps.membership.listMemberships(actorUserId);
    const row = await this.deps.membership.findMember(
      memberships.map((item) => item.organizationId),
      membershipId,
    );
    const actor = row && memberships.find((item) => item.organizationId === row.organizationId);
    if (!row || !actor) throw AppError.notFound();
    const visible = await this.visibleUserIds(actor);
    if (visible && !visible.includes(row.userId)) throw AppError.notFound();
    return { row, actor };
  }

  /** Null when the member sees everyone; otherwise the user ids they may see. */
  private async visibleUserIds(member: MemberContext): Promise<number[] | undefined> {
    if (isAdminRole(member.role)) return undefined;
    if (member.role !== roles.teamManager) return [member.userId];
    const teammates = await this.deps.teams.listTeammateIds(member.organizationId, member.userId);
    return [member.userId, ...teammates];
  }

  async present(organizationId: number, rows: MemberRow[]): Promise<Membership[]> {
    const userIds = rows.map((row) => row.userId);
    const teamIds = await this.deps.teams.teamIdsByUser(organizationId, userIds);
    const projectIds = await this.deps.projects.projectIdsByUser(organizationId, userIds);
    return rows.map((row) => ({
      id: row.id,
      userid: row.userId,
      email: row.email,
      first_name: row.firstName,
      last_name: row.lastName,
      role: row.role,
      organization: row.organizationId,
      teams: teamIds.get(row.userId) ?? [],
      projects: projectIds.get(row.userId) ?? [],
      is_active: row.isActive,
      two_factor_enabled: row.twoFactorEnabled,
      created_at: row.createdAt.toISOString(),
    }));
  }
}

export function assertAllowed(
  member: MemberContext,
  action: StaffAction,
  subject: { isSelf?: boolean; inTeam?: boolean; targetRole?: number } = {},
): void {
  if (!can(member, action, subject)) throw AppError.forbidden();
}
