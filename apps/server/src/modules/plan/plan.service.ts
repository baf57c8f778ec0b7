/**
 * Owns plans (tariffs): what is on offer, which plan a new organization gets, and the rule
 * for when usage against a plan counts as critical.
 */
import type { Tariff } from "@tarmac/contracts";
import type { Database } from "../../platform/db/client.ts";
import { findDefaultPlan, findPlanByCode, findPlansByIds, listPlans, type PlanRow } from "./plan.repo.ts";

export type { PlanRow } from "./plan.repo.ts";

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
    private readonly deps: {
      db: Database;
      defaultPlanCode?: string;
      /** Whether organizations can pay for plans here (a billing provider is configured). */
      billingEnabled: boolean;
      /** The instance's administrators (ADMIN_EMAILS): who lifts limits where nobody pays. */
      adminEmails: readonly string[];
    },
  ) {}

  /** Who lifts a limit on this instance: a larger plan bought here, or the administrator. */
  wayOut(): { limits_managed_by: "billing" | "administrator"; administrator_email: string | null } {
    return this.deps.billingEnabled
      ? { limits_managed_by: "billing", administrator_email: null }
      : { limits_managed_by: "administrator", administrator_email: this.deps.adminEmails[0] ?? null };
  }

  /** The sentence that ends a limit message: what to do about it on this instance. */
  limitAdvice(): string {
    if (this.deps.billingEnabled) return "Upgrade the plan on the organization's Plan page.";
    const admin = this.deps.adminEmails[0];
    return admin
      ? `Ask the administrator of this Tarmac instance (${admin}) to raise it.`
      : "Ask the administrator of this Tarmac instance to raise it.";
  }

  get billingEnabled(): boolean {
    return this.deps.billingEnabled;
  }

  findByCode(code: string, db = this.deps.db): Promise<PlanRow | null> {
    return findPlanByCode(db, code);
  }

  async listTariffs(): Promise<Tariff[]> {
    return (await listPlans(this.deps.db)).map(presentTariff);
  }

  /**
   * DEFAULT_PLAN when configured; else, where organizations can pay, the plan marked default, and
   * where they cannot (no billing provider), `unlimited`: nobody may be stuck at a limit that no
   * one on the instance can lift by paying.
   */
  async getPlanForNewOrganization(db = this.deps.db): Promise<PlanRow> {
    const code = this.deps.defaultPlanCode ?? (this.deps.billingEnabled ? undefined : "unlimited");
    const plan = code ? await findPlanByCode(db, code) : await findDefaultPlan(db);
    if (!plan) {
      throw new Error(code ? `DEFAULT_PLAN: no plan with code "${code}"` : "no plan is marked as default");
    }
    return plan;
  }

  /** Plans by id (an organization's plan, or those of a page of organizations). */
  async findPlans(ids: number[], db = this.deps.db): Promise<Map<number, PlanRow>> {
    const rows = await findPlansByIds(db, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  async getPlan(id: number, db = this.deps.db): Promise<PlanRow> {
    const plan = (await this.findPlans([id], db)).get(id);
    if (!plan) throw new Error(`plan ${id} does not exist`);
    return plan;
  }
}
