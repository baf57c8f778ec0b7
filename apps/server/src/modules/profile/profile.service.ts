/**
 * Owns the signed-in user's profile: the profile item with the organizations they belong to
 * (read from the organizations tables), name changes, the welcome flag and closing the account.
 */

import type { Profile, ProfileOrgData } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { checkOwnCredential } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { OrganizationLifecycleService } from "../organization/organization-lifecycle.service.ts";
import { bytesToMb } from "../plan/plan.service.ts";
import type { UserRow, UserService } from "../users/user.service.ts";

export interface ProfileFilter {
  closeWelcome: boolean;
  orgId?: number;
  subdomain?: string;
  search?: string;
  full: boolean;
}

/** What else must go when an account closes; queued in the closing transaction. */
export interface AccountClosingHooks {
  queueUserFilesDeletion(tx: Database, userId: number): Promise<void>;
}

export class ProfileService {
  constructor(
    private readonly deps: {
      db: Database;
      users: UserService;
      organizations: OrganizationService;
      lifecycle: OrganizationLifecycleService;
      closing: AccountClosingHooks;
      publicUrl: string;
    },
  ) {}

  private async getUser(userId: number): Promise<UserRow> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw AppError.unauthorized();
    return user;
  }

  /** The profile but for what only the request knows (`is_instance_admin`: how the session was made). */
  private async present(user: UserRow, filter: ProfileFilter): Promise<Omit<Profile, "is_instance_admin">> {
    const search = filter.search?.trim().toLowerCase();
    const orgs = (await this.deps.organizations.listOfMember(user.id)).filter(
      ({ organization }) =>
        (filter.orgId === undefined || organization.id === filter.orgId) &&
        (filter.subdomain === undefined || organization.subdomain === filter.subdomain.toLowerCase()) &&
        (!search || organization.title.toLowerCase().includes(search)),
    );
    const orgData: ProfileOrgData[] = orgs.map(({ role, organization, plan, limits, usersCount }) => ({
      org_id: organization.id,
      title: organization.title,
      subdomain: organization.subdomain,
      logo: organization.logoKey ? `${this.deps.publicUrl}/api/organizations/${organization.id}/logo/` : null,
      role,
      space_used: bytesToMb(organization.spaceUsedBytes),
      space_limit: limits.spaceLimitMb,
      builds_count: organization.buildsCount,
      build_limit: limits.buildLimit,
      projects_count: organization.projectsCount,
      projects_limit: limits.projectsLimit,
      users_count: usersCount,
      user_limit: limits.userLimit,
      ...(filter.full ? { plan: { id: plan.id, code: plan.code, title: plan.title } } : {}),
    }));
    return {
      user_id: user.id,
      username: user.email,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      is_active: user.isActive,
      two_factor_enabled: user.twoFactorEnabled,
      welcome_closed: user.welcomeClosed,
      date_joined: user.createdAt.toISOString(),
      org_data: orgData,
    };
  }

  async getProfile(userId: number, filter: ProfileFilter) {
    let user = await this.getUser(userId);
    if (filter.closeWelcome && !user.welcomeClosed) {
      user = (await this.deps.users.update(userId, { welcomeClosed: true })) ?? user;
    }
    return this.present(user, filter);
  }

  /** Only one's own profile; any other id answers 404 like an object that does not exist. */
  async updateName(
    actorUserId: number,
    targetUserId: number,
    names: { firstName: string; lastName: string },
  ) {
    if (actorUserId !== targetUserId) throw AppError.notFound();
    const user = await this.deps.users.update(actorUserId, {
      firstName: names.firstName,
      lastName: names.lastName,
    });
    if (!user) throw AppError.notFound();
    return this.present(user, { closeWelcome: false, full: false });
  }

  /**
   * Closes the account. Refused while the user owns an organization others still use; the
   * organizations they own alone are marked for deletion, whose job removes their contents,
   * and a job removes the user's data export files. The id in the URL must be 0 (what the spec
   * sends) or the caller's own; any other answers 404 before the password is looked at, so it
   * neither closes the caller's account by mistake nor counts as a guess.
   */
  async deleteAccount(userId: number, targetUserId: number, password: string): Promise<void> {
    if (targetUserId !== 0 && targetUserId !== userId) throw AppError.notFound();
    await this.getUser(userId);
    const ok = await checkOwnCredential(this.deps.db, userId, () =>
      this.deps.users.verifyPassword(userId, password),
    );
    if (!ok) {
      throw AppError.validation({ password: ["Wrong password."] });
    }
    await this.deps.db.transaction(async (tx) => {
      await this.deps.lifecycle.closeOrganizationsOf(userId, tx);
      await this.deps.users.delete(userId, tx);
      await this.deps.closing.queueUserFilesDeletion(tx, userId);
    });
  }
}
