/**
 * Owns the two owner-only changes of an organization's life: handing ownership to another
 * member, and deletion (confirmed by password, carried out by the organization.delete job).
 */
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { AccountsPort } from "./accounts-port.ts";
import type { MembershipService } from "./membership.service.ts";
import type { OrganizationJobs } from "./organization.jobs.ts";
import {
  findMemberWithAccount,
  lockOrganization,
  markOrganizationDeleting,
  setMemberRole,
} from "./organization.repo.ts";
import { assertAllowed } from "./organization.service.ts";
import { roles } from "./roles.ts";

export class OrganizationLifecycleService {
  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      accounts: Pick<AccountsPort, "verifyPassword">;
      jobs: JobQueue;
      organizationJobs: OrganizationJobs;
    },
  ) {}

  async requestDeletion(
    actorUserId: number,
    input: { organization: number; password: string },
    now = new Date(),
  ): Promise<{ detail: string }> {
    const { db, membership, accounts, jobs, organizationJobs } = this.deps;
    const member = await membership.getMembership(actorUserId, input.organization);
    assertAllowed(member, "organization:delete");
    if (!(await accounts.verifyPassword(actorUserId, input.password))) {
      throw AppError.validation({ password: ["Wrong password."] });
    }
    await db.transaction(async (tx) => {
      if (!(await lockOrganization(tx, input.organization))) throw AppError.notFound();
      await markOrganizationDeleting(tx, input.organization, now);
      await jobs.send(organizationJobs.delete, { organizationId: input.organization }, { tx });
    });
    return { detail: "The organization is being deleted." };
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
      if (!(await lockOrganization(tx, input.organization))) throw AppError.notFound();
      const current = await membership.getMembership(actorUserId, input.organization, tx);
      assertAllowed(current, "organization:transfer-owner");
      const target = await findMemberWithAccount(tx, input.organization, input.user);
      if (!target) throw AppError.validation({ user: ["This user is not a member of the organization."] });
      if (!target.isActive) {
        throw AppError.validation({ user: ["This user has not activated the account yet."] });
      }
      await setMemberRole(tx, input.organization, input.user, roles.owner);
      await setMemberRole(tx, input.organization, actorUserId, roles.admin);
    });
    return { detail: "Ownership has been transferred." };
  }
}
