/**
 * The instance administrators' view of every organization: search them, put one on any plan,
 * and set limits for one organization alone. Every change goes to the organization's activity
 * log with the administrator's id (OrganizationPlanService).
 */
import type { AdminOrganization, AdminOrganizationPatch, OrganizationActivityEntry } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import { effectiveLimits, type LimitOverrides } from "../organization/effective-limits.ts";
import type { OrganizationPlanService } from "../organization/organization-plan.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import { bytesToMb, type PlanService } from "../plan/plan.service.ts";

type InstanceRow = NonNullable<Awaited<ReturnType<OrganizationPlanService["findInInstance"]>>>;

const limitKeys = ["space_limit", "build_limit", "projects_limit", "user_limit"] as const;

export class AdminOrganizationsService {
  constructor(
    private readonly deps: {
      db: Database;
      organizationPlans: OrganizationPlanService;
      plans: PlanService;
      usage: OrganizationUsageService;
    },
  ) {}

  async list(search: string | undefined, params: PageParams) {
    const { count, rows } = await this.deps.organizationPlans.listInstance(search || undefined, {
      limit: params.pageSize,
      offset: params.offset,
    });
    return { count, results: await this.present(rows) };
  }

  async get(organizationId: number): Promise<AdminOrganization> {
    const row = await this.deps.organizationPlans.findInInstance(organizationId);
    if (!row) throw AppError.notFound();
    const [presented] = await this.present([row]);
    return presented as AdminOrganization;
  }

  async update(actorUserId: number, organizationId: number, patch: AdminOrganizationPatch) {
    const row = await this.deps.organizationPlans.findInInstance(organizationId);
    if (!row) throw AppError.notFound();
    const plan = patch.plan === undefined ? null : await this.deps.plans.findByCode(patch.plan);
    if (patch.plan !== undefined && !plan) throw AppError.validation({ plan: ["No plan with this code."] });
    const by = { actorUserId, source: "admin" };
    await this.deps.db.transaction(async (tx) => {
      if (plan) await this.deps.organizationPlans.setPlan(organizationId, plan.id, by, tx);
      if (patch.limits) {
        const overrides: LimitOverrides = { ...row.organization.limitOverrides };
        for (const key of limitKeys) {
          const value = patch.limits[key];
          if (value === null) delete overrides[key];
          else if (value !== undefined) overrides[key] = value;
        }
        await this.deps.organizationPlans.setLimits(organizationId, overrides, by, tx);
      }
    });
    return this.get(organizationId);
  }

  async activity(organizationId: number, params: PageParams) {
    if (!(await this.deps.organizationPlans.findInInstance(organizationId))) throw AppError.notFound();
    const { count, rows } = await this.deps.organizationPlans.listActivity(organizationId, {
      limit: params.pageSize,
      offset: params.offset,
    });
    const results: OrganizationActivityEntry[] = rows.map(({ activity, actorEmail }) => ({
      id: activity.id,
      action: activity.action,
      details: activity.details,
      actor: activity.actorUserId && actorEmail ? { id: activity.actorUserId, email: actorEmail } : null,
      created_at: activity.createdAt.toISOString(),
    }));
    return { count, results };
  }

  private async present(rows: InstanceRow[]): Promise<AdminOrganization[]> {
    const ids = rows.map((row) => row.organization.id);
    const plans = await this.deps.plans.findPlans(rows.map((row) => row.organization.planId));
    const seats = await this.deps.usage.seatsTaken(ids);
    return rows.flatMap(({ organization, ownerId, ownerEmail, ownerName }) => {
      const plan = plans.get(organization.planId);
      if (!plan) return [];
      const limits = effectiveLimits(plan, organization.limitOverrides);
      return [
        {
          id: organization.id,
          title: organization.title,
          subdomain: organization.subdomain,
          created_at: organization.createdAt.toISOString(),
          owner: ownerId && ownerEmail ? { id: ownerId, email: ownerEmail, name: ownerName ?? "" } : null,
          plan: { id: plan.id, code: plan.code, title: plan.title },
          limits: {
            space_limit: limits.spaceLimitMb,
            build_limit: limits.buildLimit,
            projects_limit: limits.projectsLimit,
            user_limit: limits.userLimit,
          },
          overrides: organization.limitOverrides,
          usage: {
            space_used: bytesToMb(organization.spaceUsedBytes),
            builds_count: organization.buildsCount,
            projects_count: organization.projectsCount,
            users_count: seats.get(organization.id) ?? 0,
          },
        },
      ];
    });
  }
}
