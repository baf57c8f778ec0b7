/**
 * Owns inviting people into an organization and their answers. Adding someone is an offer: the
 * person becomes a member only by accepting it (in the app, or by the invitation link that sets
 * a new account's password). Until then the organization sees only the address it typed, and
 * the answer is the same whether or not that address has an account.
 */
import type { CreateMembershipInput, Invitation, Membership, MyInvitation } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import type { ProjectMembershipService } from "../application/project-membership.service.ts";
import type { AccountService } from "../auth/account.service.ts";
import {
  AlreadyInvitedError,
  type InvitationRow,
  type InvitationService,
} from "../organization/invitation.service.ts";
import type { Caller, MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import type { TeamService } from "../team/team.service.ts";
import { displayName, normalizeEmail, type UserService } from "../users/user.service.ts";
import { alreadyMember, assertAllowed, type StaffService } from "./staff.service.ts";

export interface StaffInvitationDeps {
  db: Database;
  staff: StaffService;
  membership: MembershipService;
  invitations: InvitationService;
  organizations: OrganizationService;
  usage: OrganizationUsageService;
  teams: TeamService;
  projects: ProjectMembershipService;
  users: UserService;
  accounts: Pick<AccountService, "prepareInvitee" | "limitInvitations" | "mailInvitation">;
}

export function presentInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    role: row.role,
    organization: row.organizationId,
    teams: row.teamIds,
    projects: row.projectIds,
    status: "invited",
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

export class StaffInvitationsService {
  constructor(private readonly deps: StaffInvitationDeps) {}

  /** `POST /api/usersinorgs/`: offers the organization's place to the address. */
  async invite(actorUserId: number, input: CreateMembershipInput): Promise<Invitation> {
    const { db, membership, usage, teams, projects, users, accounts, invitations } = this.deps;
    const organizationId = input.organization;
    assertAllowed(await membership.getMembership(actorUserId, organizationId), "staff:create");
    const email = normalizeEmail(input.userid);
    await accounts.limitInvitations(actorUserId, email);
    const row = await db.transaction(async (tx) => {
      await membership.lockOrganization(organizationId, tx);
      const existing = await users.findByEmail(email, tx);
      if (existing && (await membership.findMemberByUser(organizationId, existing.id, tx)))
        throw alreadyMember();
      if (existing && (await invitations.findLive(organizationId, existing.id, tx))) throw alreadyInvited();
      await usage.assertSeatFree(organizationId, tx);
      await teams.assertTeamsInOrganization(organizationId, input.teams, tx);
      await projects.assertProjectsInOrganization(organizationId, input.projects, tx);
      const invitee =
        existing ??
        (await accounts.prepareInvitee(
          { email, firstName: input.first_name, lastName: input.last_name },
          tx,
        ));
      let offered: InvitationRow;
      try {
        offered = await invitations.offer(
          {
            organizationId,
            userId: invitee.id,
            email,
            role: input.role,
            teamIds: [...new Set(input.teams)],
            projectIds: [...new Set(input.projects)],
            firstName: input.first_name,
            lastName: input.last_name,
            invitedBy: actorUserId,
          },
          tx,
        );
      } catch (error) {
        if (error instanceof AlreadyInvitedError) throw alreadyInvited();
        throw error;
      }
      await this.mail(invitee.id, offered, actorUserId, tx);
      return offered;
    });
    return presentInvitation(row);
  }

  private async mail(userId: number, invitation: InvitationRow, invitedByUserId: number, tx: Database) {
    const user = await this.deps.users.findById(userId, tx);
    if (!user) throw AppError.notFound();
    await this.deps.accounts.mailInvitation(
      user,
      {
        invitedByUserId,
        organizationId: invitation.organizationId,
        organizationTitle: await this.deps.organizations.getTitle(invitation.organizationId, tx),
      },
      tx,
    );
  }

  /**
   * Makes the person a member with what the invitation offered (the teams and projects that
   * still exist), in `tx`. Null when no live invitation is left (answered, cancelled, expired).
   */
  async join(userId: number, organizationId: number, tx: Database): Promise<number | null> {
    const { membership, invitations, teams, projects } = this.deps;
    if (!(await invitations.findLive(organizationId, userId, tx))) return null;
    await membership.lockOrganization(organizationId, tx);
    const taken = await invitations.take(organizationId, userId, tx);
    if (!taken) return null;
    const member = await membership.findMemberByUser(organizationId, userId, tx);
    if (member) return member.id;
    const id = await membership.addMember(
      {
        organizationId,
        userId,
        role: taken.role,
        ...(taken.invitedBy ? { invitedBy: taken.invitedBy } : {}),
      },
      tx,
    );
    await teams.setUserTeams(
      organizationId,
      userId,
      await teams.teamsInOrganization(organizationId, taken.teamIds, tx),
      tx,
    );
    const projectIds = await projects.projectsInOrganization(organizationId, taken.projectIds, tx);
    await projects.replaceUserProjects(organizationId, userId, projectIds, taken.role, tx);
    return id;
  }

  /** Every live invitation of the person (an invitation link mailed before links named one). */
  async joinAll(userId: number, tx: Database): Promise<void> {
    for (const { invitation } of await this.deps.invitations.listForUser(userId, tx)) {
      await this.join(userId, invitation.organizationId, tx);
    }
  }

  /** `POST /api/invitations/{id}/accept/`. */
  async accept(userId: number, invitationId: number): Promise<Membership> {
    const invitation = await this.deps.invitations.findOfUser(userId, invitationId);
    if (!invitation) throw AppError.notFound();
    const membershipId = await this.deps.db.transaction((tx) =>
      this.join(userId, invitation.organizationId, tx),
    );
    if (membershipId === null) throw AppError.notFound();
    return this.deps.staff.get(userId, membershipId);
  }

  /** `POST /api/invitations/{id}/decline/`. */
  async decline(userId: number, invitationId: number): Promise<void> {
    const invitation = await this.deps.invitations.findOfUser(userId, invitationId);
    if (!invitation) throw AppError.notFound();
    await this.deps.invitations.cancel(invitation.organizationId, invitation.id);
  }

  /** `GET /api/invitations/`: what waits for the person's answer. */
  async listMine(userId: number): Promise<MyInvitation[]> {
    const rows = await this.deps.invitations.listForUser(userId);
    const inviters = await this.deps.users.summaries(
      rows.flatMap((row) => (row.invitation.invitedBy ? [row.invitation.invitedBy] : [])),
    );
    return rows.map(({ invitation, organizationTitle, subdomain }) => {
      const inviter = invitation.invitedBy ? inviters.get(invitation.invitedBy) : undefined;
      return {
        id: invitation.id,
        organization: { id: invitation.organizationId, title: organizationTitle, subdomain },
        role: invitation.role,
        invited_by: inviter ? displayName(inviter) : "",
        created_at: invitation.createdAt.toISOString(),
        expires_at: invitation.expiresAt.toISOString(),
      };
    });
  }

  /** `GET /api/orgs-invitations/`: the organization's invitations not answered yet (admins). */
  async listForOrganization(caller: Caller, query: { org?: number; subdomain?: string }, params: PageParams) {
    const actor = await this.deps.membership.resolveMembership(caller, query);
    assertAllowed(actor, "staff:create");
    const rows = await this.deps.invitations.listForOrganization(actor.organizationId);
    return {
      count: rows.length,
      results: rows.slice(params.offset, params.offset + params.pageSize).map(presentInvitation),
    };
  }

  /** An invitation of one of the caller's organizations that the caller may manage. */
  private async getManaged(actorUserId: number, invitationId: number): Promise<InvitationRow> {
    const memberships = await this.deps.membership.listMemberships(actorUserId);
    const invitation = await this.deps.invitations.findAmong(
      memberships.map((member) => member.organizationId),
      invitationId,
    );
    const actor =
      invitation && memberships.find((member) => member.organizationId === invitation.organizationId);
    if (!invitation || !actor) throw AppError.notFound();
    assertAllowed(actor, "staff:create");
    return invitation;
  }

  /** `POST /api/orgs-invitations/{id}/resend/`: within the same limits as inviting. */
  async resend(actorUserId: number, invitationId: number): Promise<{ detail: string }> {
    const invitation = await this.getManaged(actorUserId, invitationId);
    await this.deps.accounts.limitInvitations(actorUserId, invitation.email);
    await this.deps.db.transaction((tx) => this.mail(invitation.userId, invitation, actorUserId, tx));
    return { detail: "The invitation has been sent again." };
  }

  /** `DELETE /api/orgs-invitations/{id}/`: the seat is free again. */
  async cancel(actorUserId: number, invitationId: number): Promise<void> {
    const invitation = await this.getManaged(actorUserId, invitationId);
    await this.deps.invitations.cancel(invitation.organizationId, invitation.id);
  }
}

const alreadyInvited = () =>
  AppError.validation({ userid: ["This person has already been invited to the organization."] });
