import { AppError } from "../../http/errors.ts";
import { effectiveLimits } from "../organization/effective-limits.ts";
import type { OrganizationPlanService } from "../organization/organization-plan.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import type { PlanRow } from "../plan/plan.service.ts";

/**
 * Whether the organization fits in a plan: what it holds now (projects, space, builds, people
 * with pending invitations) against the plan's limits with the organization's own overrides.
 */
export class PlanFit {
  constructor(
    private readonly deps: { usage: OrganizationUsageService; organizationPlans: OrganizationPlanService },
  ) {}

  /** 400 `plan_limits_exceeded` naming each limit the organization is over. */
  async assertFits(organizationId: number, plan: PlanRow): Promise<void> {
    const [usage, found] = await Promise.all([
      this.deps.usage.readUsage(organizationId),
      this.deps.organizationPlans.findInInstance(organizationId),
    ]);
    if (!found) throw AppError.notFound();
    const limits = effectiveLimits(plan, found.organization.limitOverrides);
    const checks: [string, number, number, string][] = [
      ["projects", usage.projects_count, limits.projectsLimit, ""],
      ["space", usage.space_used, limits.spaceLimitMb, " MB"],
      ["builds", usage.builds_count, limits.buildLimit, ""],
      ["users (with pending invitations)", usage.users_count, limits.userLimit, ""],
    ];
    const over = checks
      .filter(([, used, limit]) => limit > 0 && used > limit)
      .map(([name, used, limit, unit]) => `${name}: ${used}${unit} used, ${limit}${unit} allowed`);
    if (over.length === 0) return;
    throw new AppError(
      "plan_limits_exceeded",
      400,
      `The organization holds more than the ${plan.title} plan allows (${over.join("; ")}). Remove what is over the limit first.`,
      undefined,
      "plan_limits_exceeded",
    );
  }
}
