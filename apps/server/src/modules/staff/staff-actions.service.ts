/**
 * Owns what can be done to one member's account from the staff screen (re-sent invitation,
 * two-factor reset, the member's own API key) and the user directory of an organization.
 * The account changes themselves are the accounts part's; this decides who may ask.
 */
import type { Membership, OrganizationSelector, TeamsUsersSearchResult } from "@tarmac/contracts";
import type { PageParams } from "../../http/pagination.ts";
import type { AccountService } from "../auth/account.service.ts";
import type { Caller, MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { TeamService } from "../team/team.service.ts";
import type { TwoFactorService } from "../two-factor/two-factor.service.ts";
import type { TokenService } from "../users/token.service.ts";
import { assertAllowed, type StaffService } from "./staff.service.ts";

const searchLimit = 20;

export class StaffActionsService {
  constructor(
    private readonly deps: {
      staff: StaffService;
      membership: MembershipService;
      organizations: OrganizationService;
      teams: TeamService;
      accounts: Pick<AccountService, "resendInvitation">;
      twoFactor: Pick<TwoFactorService, "disableTwoFactor">;
      tokens: Pick<TokenService, "rotateApiKey">;
    },
  ) {}

  async resendInvitation(actorUserId: number, membershipId: number): Promise<{ detail: string }> {
    const { row, actor } = await this.deps.staff.getVisible(actorUserId, membershipId);
    assertAllowed(actor, "staff:resend-invitation", { targetRole: row.role });
    await this.deps.accounts.resendInvitation(row.userId, {
      invitedByUserId: actorUserId,
      organization: {
        id: row.organizationId,
        name: await this.deps.organizations.getTitle(row.organizationId),
      },
    });
    return { detail: "The invitation has been sent again." };
  }

  /** The caller's own key; one made in a single sign-on session carries that organization (see TokenService). */
  async rotateApiKey(
    caller: { userId: number; ssoOrganizationId: number | null },
    membershipId: number,
  ): Promise<Membership & { api_key: string }> {
    const actorUserId = caller.userId;
    const { row, actor } = await this.deps.staff.getVisible(actorUserId, membershipId);
    assertAllowed(actor, "staff:rotate-api-key", { isSelf: row.userId === actorUserId });
    const apiKey = await this.deps.tokens.rotateApiKey(row.userId, caller.ssoOrganizationId);
    return { ...(await this.deps.staff.get(actorUserId, membershipId)), api_key: apiKey };
  }

  async disableTwoFactor(actorUserId: number, membershipId: number): Promise<{ two_factor_enabled: false }> {
    const { row, actor } = await this.deps.staff.getVisible(actorUserId, membershipId);
    assertAllowed(actor, "staff:disable-2fa", { targetRole: row.role, isSelf: row.userId === actorUserId });
    await this.deps.twoFactor.disableTwoFactor(row.userId);
    return { two_factor_enabled: false };
  }

  async listOrgUsers(caller: Caller, query: OrganizationSelector & { search?: string }, params: PageParams) {
    const actor = await this.deps.membership.resolveMembership(caller, query);
    assertAllowed(actor, "staff:search-directory");
    const { count, rows } = await this.deps.membership.pageMembers(
      actor,
      { order: "email" },
      query.search || undefined,
      { offset: params.offset, limit: params.pageSize },
    );
    return {
      count,
      results: rows.map((row) => ({
        id: row.userId,
        email: row.email,
        first_name: row.firstName,
        last_name: row.lastName,
        role: row.role,
      })),
    };
  }

  /**
   * The add-user and team dialogs' picker: the first teams and members whose title, name or
   * address holds `s`, from the organization's lists kept per directory version.
   */
  async searchTeamsAndUsers(
    caller: Caller,
    query: OrganizationSelector & { s: string },
  ): Promise<TeamsUsersSearchResult> {
    const actor = await this.deps.membership.resolveMembership(caller, query);
    assertAllowed(actor, "staff:search-directory");
    const [teams, { rows }] = await Promise.all([
      this.deps.teams.searchTeams(actor, query.s, searchLimit),
      this.deps.membership.pageMembers(actor, { order: "email" }, query.s, { offset: 0, limit: searchLimit }),
    ]);
    return {
      teams,
      users: rows.map((row) => ({
        id: row.userId,
        email: row.email,
        first_name: row.firstName,
        last_name: row.lastName,
      })),
    };
  }
}
