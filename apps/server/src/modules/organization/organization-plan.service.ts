/**
 * Owns which plan an organization is on and the limits an instance administrator sets for it
 * alone, and the organization's activity log, where every such change is written with who made
 * it. Administrators (admin module) and the billing provider (billing module) change plans only
 * through here.
 */
import type { Database } from "../../platform/db/client.ts";
import type { PlanService } from "../plan/plan.service.ts";
import { lockOrganization } from "./organization.repo.ts";
import type { LimitOverrides } from "./organization.tables.ts";
import {
  insertActivity,
  listActivity,
  listOrganizationsOfInstance,
  setLimitOverrides,
  setPlanOfOrganization,
} from "./organization-activity.repo.ts";

/** Who made a change: a person (an administrator, an owner) or, with null, the system (billing, jobs). */
export interface ChangedBy {
  actorUserId: number | null;
  /** Where the change came from, kept in the log: "admin", "billing", ... */
  source: string;
}

export class OrganizationPlanService {
  constructor(private readonly deps: { db: Database; plans: PlanService }) {}

  /** Writes one entry of the organization's activity log, in `db` (the change's transaction). */
  record(
    organizationId: number,
    action: string,
    details: Record<string, unknown>,
    by: ChangedBy,
    db = this.deps.db,
  ): Promise<void> {
    return insertActivity(db, {
      organizationId,
      actorUserId: by.actorUserId,
      action,
      details: { ...details, source: by.source },
    });
  }

  /** Puts the organization on the plan (logged); nothing when it already is. False if it is gone. */
  async setPlan(organizationId: number, planId: number, by: ChangedBy, tx: Database): Promise<boolean> {
    const organization = await lockOrganization(tx, organizationId);
    if (!organization) return false;
    if (organization.planId === planId) return true;
    const plans = await this.deps.plans.findPlans([organization.planId, planId], tx);
    await setPlanOfOrganization(tx, organizationId, planId);
    await this.record(
      organizationId,
      "plan.changed",
      { from: plans.get(organization.planId)?.code ?? null, to: plans.get(planId)?.code ?? null },
      by,
      tx,
    );
    return true;
  }

  /** Replaces the organization's own limits (logged); an empty object returns it to its plan's. */
  async setLimits(organizationId: number, overrides: LimitOverrides, by: ChangedBy, tx: Database) {
    const organization = await lockOrganization(tx, organizationId);
    if (!organization) return false;
    if (sameLimits(organization.limitOverrides, overrides)) return true;
    await setLimitOverrides(tx, organizationId, overrides);
    await this.record(
      organizationId,
      "limits.changed",
      { from: organization.limitOverrides, to: overrides },
      by,
      tx,
    );
    return true;
  }

  listActivity(organizationId: number, page: { limit: number; offset: number }) {
    return listActivity(this.deps.db, organizationId, page);
  }

  /** The instance's organizations (not being deleted) with their owners, for its administrators. */
  listInstance(search: string | undefined, page: { limit: number; offset: number }) {
    return listOrganizationsOfInstance(this.deps.db, search ? { search } : {}, page);
  }

  async findInInstance(organizationId: number) {
    const { rows } = await listOrganizationsOfInstance(
      this.deps.db,
      { id: organizationId },
      { limit: 1, offset: 0 },
    );
    return rows[0] ?? null;
  }
}

function sameLimits(left: LimitOverrides, right: LimitOverrides): boolean {
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]) as Set<keyof LimitOverrides>;
  return [...keys].every((key) => left[key] === right[key]);
}
