// The plan-and-limits form of an organization: its state, what the server is sent, and how limit
// values read (space in MB, 0 = unlimited).
import type { AdminOrganization, AdminOrganizationPatch, LimitKey } from "../../api/admin.ts";
import { LIMIT_KEYS } from "../../api/admin.ts";
import { formatStorage } from "../../ui/format/size.ts";

/** One limit in the form: the plan's, or the organization's own value (empty while being typed). */
export interface LimitChoice {
  own: boolean;
  value: number | "";
}

export type LimitsForm = Record<LimitKey, LimitChoice>;

/** The form as the organization stands: its own limits where it has them, else the plan's. */
export function formFromOrganization(organization: AdminOrganization): LimitsForm {
  const form = {} as LimitsForm;
  for (const key of LIMIT_KEYS) {
    const own = organization.overrides[key];
    form[key] = { own: own !== undefined, value: own ?? organization.limits[key] };
  }
  return form;
}

/** The limits chosen as the organization's own but left without a number. */
export function missingLimits(form: LimitsForm): LimitKey[] {
  return LIMIT_KEYS.filter((key) => form[key].own && form[key].value === "");
}

/**
 * Only what changed: the plan when another one is chosen, and each limit whose own value was set,
 * changed or given back to the plan (null). Null when nothing changed, so nothing is logged.
 */
export function buildPatch(
  organization: AdminOrganization,
  planCode: string,
  form: LimitsForm,
): AdminOrganizationPatch | null {
  const patch: AdminOrganizationPatch = {};
  if (planCode !== organization.plan.code) patch.plan = planCode;
  const limits: NonNullable<AdminOrganizationPatch["limits"]> = {};
  for (const key of LIMIT_KEYS) {
    const { own, value } = form[key];
    const wanted = own && value !== "" ? value : null;
    if (wanted !== (organization.overrides[key] ?? null)) limits[key] = wanted;
  }
  if (Object.keys(limits).length > 0) patch.limits = limits;
  return Object.keys(patch).length > 0 ? patch : null;
}

/** A limit's value as people read it: storage with its unit, counts grouped, 0 as `unlimited`. */
export function formatLimit(key: LimitKey, value: number, language: string, unlimited: string): string {
  if (value === 0) return unlimited;
  if (key === "space_limit") return formatStorage(value, language);
  return new Intl.NumberFormat(language).format(value);
}

/** Which usage counter each limit is measured against. */
export const USAGE_OF_LIMIT = {
  space_limit: "space_used",
  build_limit: "builds_count",
  projects_limit: "projects_count",
  user_limit: "users_count",
} as const satisfies Record<LimitKey, keyof AdminOrganization["usage"]>;

/** The word of each limit in the translations (`usage.<name>`, `admin.usage_of.<name>`, …). */
export const LIMIT_NAME = {
  space_limit: "space",
  build_limit: "builds",
  projects_limit: "projects",
  user_limit: "users",
} as const satisfies Record<LimitKey, string>;
