import type { OrganizationSelector } from "@tarmac/contracts";
/**
 * Owns the owner-only changes of an organization's life: handing ownership to another member,
 * deletion (confirmed by password, carried out by the organization.delete job), and what
 * happens to the organizations of a person who closes their account.
 */
import { AppError } from "../../http/errors.ts";
import { checkOwnCredential } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { UserService } from "../users/user.service.ts";
import { listOwnedOrganizationIds } from "./membership.repo.ts";
import type { MembershipService } from "./membership.service.ts";
import type { OrganizationJobs } from "./organization.jobs.ts";
import { markOrganizationsDeleting } from "./organization.repo.ts";
import { assertAllowed } from "./organization.service.ts";
import { roles } from "./roles.ts";

export class OrganizationLifecycleService {
  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      users: Pick<UserService, "verifyPassword">;
      jobs: JobQueue;
      organizationJobs: OrganizationJobs;
    },
  ) {}

  async requestDeletion(
    actorUserId: number,
    input: { selector: OrganizationSelector; password: string },
    now = new Date(),
  ): Promise<{ detail: string }> {
    const { db, membership, users } = this.deps;
    const member = await membership.resolveMembership(actorUserId, input.selector);
    assertAllowed(member, "organization:delete");
    const ok = await checkOwnCredential(db, actorUserId, () =>
      users.verifyPassword(actorUserId, input.password),
    );
    if (!ok) {
      throw AppError.validation({ password: ["Wrong password."] });
    }
    await db.transaction(async (tx) => {
      await membership.lockOrganization(member.organizationId, tx);
      await this.deleteLater([member.organizationId], tx, now);
    });
    return { detail: "The organization is being deleted." };
  }

  /** Marks organizations as being deleted (they answer 404 at once) and queues their removal. */
  private async deleteLater(organizationIds: number[], tx: Database, now: Date): Promise<void> {
    await markOrganizationsDeleting(tx, organizationIds, now);
    for (const organizationId of organizationIds) {
      await this.deps.jobs.send(this.deps.organizationJobs.delete, { organizationId }, { tx });
    }
  }

  /**
   * Before an account closes (in its transaction): refused while the person owns an
   * organization others still use; the organizations they own alone go with the account.
   */
  async closeOrganizationsOf(userId: number, tx: Database, now = new Date()): Promise<void> {
    const owned = await listOwnedOrganizationIds(tx, userId);
    const members = await this.deps.membership.countMembers(owned, tx);
    if (owned.some((organizationId) => (members.get(organizationId) ?? 0) > 1)) {
      throw AppError.badRequest(
        "You own an organization with other members: transfer the ownership or remove the members first.",
      );
    }
    await this.deleteLater(owned, tx, now);
  }

  async transferOwnership(
    actorUserId: number,
    input: { organization: number; user: number },
  ): Promise<{ detail: string }> {
    const { db, membership } = this.deps;
    const member = await membership.getMembership(actorUserId, input.organization);
    assertAllowed(member, "organization:transfer-owner");
    if (input.user === actorUserId) {
      throw AppError.validation({ user: ["You already own this organization."] });
    }
    await db.transaction(async (tx) => {
      // Locked so two transfers (or a transfer and a removal) cannot interleave.
      await membership.lockOrganization(input.organization, tx);
      const current = await membership.getMembership(actorUserId, input.organization, tx);
      assertAllowed(current, "organization:transfer-owner");
      const target = await membership.findMemberByUser(input.organization, input.user, tx);
      if (!target) throw AppError.validation({ user: ["This user is not a member of the organization."] });
      if (!target.isActive) {
        throw AppError.validation({ user: ["This user has not activated the account yet."] });
      }
      await membership.changeRoleOfUser(input.organization, input.user, roles.owner, tx);
      await membership.changeRoleOfUser(input.organization, actorUserId, roles.admin, tx);
    });
    return { detail: "Ownership has been transferred." };
  }
}
