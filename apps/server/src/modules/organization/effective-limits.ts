import type { PlanRow } from "../plan/plan.service.ts";
import type { LimitOverrides } from "./organization.tables.ts";

export type { LimitOverrides } from "./organization.tables.ts";

/** What an organization may hold (0 = unlimited): space in MB, builds, projects, people. */
export interface Limits {
  spaceLimitMb: number;
  buildLimit: number;
  projectsLimit: number;
  userLimit: number;
}

/** The plan's limits, with what an instance administrator set for this organization over them. */
export function effectiveLimits(plan: PlanRow, overrides: LimitOverrides): Limits {
  return {
    spaceLimitMb: overrides.space_limit ?? plan.spaceLimitMb,
    buildLimit: overrides.build_limit ?? plan.buildLimit,
    projectsLimit: overrides.projects_limit ?? plan.projectsLimit,
    userLimit: overrides.user_limit ?? plan.userLimit,
  };
}
