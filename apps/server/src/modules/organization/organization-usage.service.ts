/**
 * Owns an organization's usage counters (space, builds, projects on the organization row) and
 * reads them against the plan's limits. Counters move in the same transaction as the rows they
 * count, under the organization lock.
 */
import type { OrganizationSelector, OrganizationUsage } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import { bytesToMb, isUsageCritical, type PlanService } from "../plan/plan.service.ts";
import { effectiveLimits, type Limits } from "./effective-limits.ts";
import type { InvitationService } from "./invitation.service.ts";
import type { MembershipService } from "./membership.service.ts";
import { addUsage, findOrganizationById, type UsageDelta } from "./organization.repo.ts";

/** The organization's counters in bytes and its plan's limits (0 = unlimited). */
export interface Quota extends Limits {
  spaceUsedBytes: number;
  buildsCount: number;
  projectsCount: number;
  /** Space and build slots held by uploads waiting for confirmation. */
  pendingUploadBytes: number;
  pendingUploads: number;
}

/** `advice` says what to do on this instance (PlanService.limitAdvice). */
export const userLimitReached = (advice: string) =>
  new AppError(
    "user_limit_reached",
    400,
    `The organization has reached its user limit. ${advice}`,
    undefined,
    "user_limit_reached",
  );

export class OrganizationUsageService {
  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      invitations: InvitationService;
      plans: PlanService;
    },
  ) {}

  /** What to do about a limit on this instance (see PlanService.limitAdvice). */
  limitAdvice(): string {
    return this.deps.plans.limitAdvice();
  }

  /** Members and live invitations per organization: an invitation holds its seat until it is answered. */
  async seatsTaken(organizationIds: number[], db = this.deps.db): Promise<Map<number, number>> {
    const [members, invitations] = await Promise.all([
      this.deps.membership.countMembers(organizationIds, db),
      this.deps.invitations.countLive(organizationIds, db),
    ]);
    return new Map(organizationIds.map((id) => [id, (members.get(id) ?? 0) + (invitations.get(id) ?? 0)]));
  }

  /**
   * 400 user_limit_reached when the plan has no seat left for one more person. Call it under the
   * organization lock (MembershipService.lockOrganization), so that two requests cannot both take
   * the last seat.
   */
  async assertSeatFree(organizationId: number, db: Database): Promise<void> {
    const quota = await this.getQuota(organizationId, db);
    if (!quota) throw AppError.notFound();
    const seats = (await this.seatsTaken([organizationId], db)).get(organizationId) ?? 0;
    if (quota.userLimit > 0 && seats >= quota.userLimit) {
      throw userLimitReached(this.deps.plans.limitAdvice());
    }
  }

  async getQuota(organizationId: number, db = this.deps.db): Promise<Quota | null> {
    const organization = await findOrganizationById(db, organizationId);
    if (!organization) return null;
    const plan = await this.deps.plans.getPlan(organization.planId, db);
    return {
      spaceUsedBytes: organization.spaceUsedBytes,
      buildsCount: organization.buildsCount,
      projectsCount: organization.projectsCount,
      pendingUploadBytes: organization.pendingUploadBytes,
      pendingUploads: organization.pendingUploads,
      ...effectiveLimits(plan, organization.limitOverrides),
    };
  }

  /** Moves the counters; call it in the transaction that adds or removes what they count. */
  addUsage(organizationId: number, delta: UsageDelta, db = this.deps.db): Promise<void> {
    return addUsage(db, organizationId, delta);
  }

  async getUsage(actorUserId: number, selector: OrganizationSelector): Promise<OrganizationUsage> {
    const member = await this.deps.membership.resolveMembership(actorUserId, selector);
    return this.readUsage(member.organizationId);
  }

  /** Usage without a membership check, for services that have already made it. */
  async readUsage(organizationId: number, db = this.deps.db): Promise<OrganizationUsage> {
    const quota = await this.getQuota(organizationId, db);
    if (!quota) throw AppError.notFound();
    const usersCount = (await this.seatsTaken([organizationId], db)).get(organizationId) ?? 0;
    return {
      org_id: organizationId,
      space_used: bytesToMb(quota.spaceUsedBytes),
      space_limit: quota.spaceLimitMb,
      builds_count: quota.buildsCount,
      build_limit: quota.buildLimit,
      projects_count: quota.projectsCount,
      projects_limit: quota.projectsLimit,
      pending_uploads: quota.pendingUploads,
      ...this.deps.plans.wayOut(),
      pending_space: bytesToMb(quota.pendingUploadBytes),
      // Invitations not yet answered hold seats as members do.
      users_count: usersCount,
      user_limit: quota.userLimit,
      // Space held by uploads waiting for confirmation is spoken for as much as stored builds.
      critical: isUsageCritical({
        ...quota,
        spaceUsedBytes: quota.spaceUsedBytes + quota.pendingUploadBytes,
        buildsCount: quota.buildsCount + quota.pendingUploads,
      }),
    };
  }
}
