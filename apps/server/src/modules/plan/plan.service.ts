/**
 * Owns plans (tariffs) and the usage of an organization against its plan: which plan a new
 * organization gets, and when its usage counts as critical.
 */
import type { OrganizationUsage, Tariff } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { findDefaultPlan, findPlanByCode, findUsageRow, listPlans, type PlanRow } from "./plan.repo.ts";

const bytesPerMb = 1024 * 1024;
/** Spec §9: the storage warning starts above three quarters of a non-zero space limit. */
const storageWarningRatio = 0.75;

export function bytesToMb(bytes: number): number {
  return Math.round((bytes / bytesPerMb) * 100) / 100;
}

/**
 * Spec §5: critical when space used >= space limit or builds >= build limit (non-zero limits);
 * spec §9 raises the storage warning earlier, above 75 % of the space limit. Both mean
 * "act before uploads start failing", so either makes the usage critical.
 */
export function isUsageCritical(usage: {
  spaceUsedBytes: number;
  spaceLimitMb: number;
  buildsCount: number;
  buildLimit: number;
}): boolean {
  const spaceLimitBytes = usage.spaceLimitMb * bytesPerMb;
  const spaceCritical =
    spaceLimitBytes > 0 &&
    (usage.spaceUsedBytes >= spaceLimitBytes || usage.spaceUsedBytes / spaceLimitBytes > storageWarningRatio);
  const buildsCritical = usage.buildLimit > 0 && usage.buildsCount >= usage.buildLimit;
  return spaceCritical || buildsCritical;
}

function presentTariff(plan: PlanRow): Tariff {
  return {
    id: plan.id,
    code: plan.code,
    title: plan.title,
    price: plan.priceCents / 100,
    currency: plan.currency,
    space_limit: plan.spaceLimitMb,
    build_limit: plan.buildLimit,
    projects_limit: plan.projectsLimit,
    user_limit: plan.userLimit,
  };
}

export class PlanService {
  constructor(
    private readonly db: Database,
    private readonly membership: MembershipService,
    private readonly options: { defaultPlanCode?: string },
  ) {}

  async listTariffs(): Promise<Tariff[]> {
    return (await listPlans(this.db)).map(presentTariff);
  }

  /** DEFAULT_PLAN when configured (e.g. "unlimited" when self-hosting), else the plan marked default. */
  async getPlanForNewOrganization(db = this.db): Promise<PlanRow> {
    const code = this.options.defaultPlanCode;
    const plan = code ? await findPlanByCode(db, code) : await findDefaultPlan(db);
    if (!plan) {
      throw new Error(code ? `DEFAULT_PLAN: no plan with code "${code}"` : "no plan is marked as default");
    }
    return plan;
  }

  async getUsage(actorUserId: number, organizationId: number): Promise<OrganizationUsage> {
    await this.membership.getMembership(actorUserId, organizationId);
    return this.readUsage(organizationId);
  }

  /** Usage without a membership check, for services that have already made it. */
  async readUsage(organizationId: number, db = this.db): Promise<OrganizationUsage> {
    const row = await findUsageRow(db, organizationId);
    if (!row) throw AppError.notFound();
    return {
      org_id: row.organizationId,
      space_used: bytesToMb(row.spaceUsedBytes),
      space_limit: row.spaceLimitMb,
      builds_count: row.buildsCount,
      build_limit: row.buildLimit,
      projects_count: row.projectsCount,
      projects_limit: row.projectsLimit,
      users_count: row.usersCount,
      user_limit: row.userLimit,
      critical: isUsageCritical(row),
    };
  }
}
