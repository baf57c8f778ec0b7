/**
 * Owns the signed-in user's profile: the profile item with the organizations they belong to
 * (read from the organizations tables), name changes, the welcome flag and closing the account.
 */

import type { Profile, ProfileOrgData } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { verifyPassword } from "../../platform/crypto/passwords.ts";
import type { Database } from "../../platform/db/client.ts";
import { deleteUser, findUserById, type UserRow, updateUser } from "../users/users.repo.ts";
import {
  countOwnedSharedOrganizations,
  listProfileOrganizations,
  listSoleOwnedOrganizationIds,
  markOrganizationsDeleting,
} from "./profile.repo.ts";

export interface ProfileFilter {
  closeWelcome: boolean;
  orgId?: number;
  subdomain?: string;
  search?: string;
  full: boolean;
}

const bytesPerMb = 1024 * 1024;

function toMb(bytes: number): number {
  return Math.round((bytes / bytesPerMb) * 100) / 100;
}

/** What else must go when an account closes; queued in the closing transaction. */
export interface AccountClosingHooks {
  queueUserFilesDeletion(tx: Database, userId: number): Promise<void>;
}

export class ProfileService {
  constructor(
    private readonly db: Database,
    private readonly publicUrl: string,
    private readonly closing: AccountClosingHooks,
  ) {}

  private async getUser(userId: number): Promise<UserRow> {
    const user = await findUserById(this.db, userId);
    if (!user) throw AppError.unauthorized();
    return user;
  }

  private async present(user: UserRow, filter: ProfileFilter): Promise<Profile> {
    const search = filter.search?.trim().toLowerCase();
    const orgs = (await listProfileOrganizations(this.db, user.id)).filter(
      ({ organization }) =>
        (filter.orgId === undefined || organization.id === filter.orgId) &&
        (filter.subdomain === undefined || organization.subdomain === filter.subdomain.toLowerCase()) &&
        (!search || organization.title.toLowerCase().includes(search)),
    );
    const orgData: ProfileOrgData[] = orgs.map(({ membership, organization, plan, usersCount }) => ({
      org_id: organization.id,
      title: organization.title,
      subdomain: organization.subdomain,
      logo: organization.logoKey ? `${this.publicUrl}/api/organizations/${organization.id}/logo/` : null,
      role: membership.role,
      space_used: toMb(organization.spaceUsedBytes),
      space_limit: plan.spaceLimitMb,
      builds_count: organization.buildsCount,
      build_limit: plan.buildLimit,
      projects_count: organization.projectsCount,
      projects_limit: plan.projectsLimit,
      users_count: usersCount,
      user_limit: plan.userLimit,
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

  async getProfile(userId: number, filter: ProfileFilter): Promise<Profile> {
    let user = await this.getUser(userId);
    if (filter.closeWelcome && !user.welcomeClosed) {
      user = (await updateUser(this.db, userId, { welcomeClosed: true })) ?? user;
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
    const user = await updateUser(this.db, actorUserId, {
      firstName: names.firstName,
      lastName: names.lastName,
    });
    if (!user) throw AppError.notFound();
    return this.present(user, { closeWelcome: false, full: false });
  }

  /**
   * Closes the account. Refused while the user owns an organization others still use; the
   * organizations they own alone are marked for deletion, whose job removes their contents,
   * and a job removes the user's data export files.
   */
  async deleteAccount(userId: number, password: string): Promise<void> {
    const user = await this.getUser(userId);
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw AppError.validation({ password: ["Wrong password."] });
    }
    await this.db.transaction(async (tx) => {
      if ((await countOwnedSharedOrganizations(tx, userId)) > 0) {
        throw AppError.badRequest(
          "You own an organization with other members: transfer the ownership or remove the members first.",
        );
      }
      await markOrganizationsDeleting(tx, await listSoleOwnedOrganizationIds(tx, userId), new Date());
      await deleteUser(tx, userId);
      await this.closing.queueUserFilesDeletion(tx, userId);
    });
  }
}
