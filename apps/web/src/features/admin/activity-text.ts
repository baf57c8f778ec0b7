// An organization's activity entries as sentences: what changed, from what to what, by whom.
import type { TFunction } from "i18next";
import { LIMIT_KEYS, type LimitKey, type OrganizationActivityEntry } from "../../api/admin.ts";
import { formatLimit, LIMIT_NAME } from "./limits.ts";

export interface ActivityText {
  summary: string;
  /** One line per limit that changed ("Projects: the plan's → 1"). */
  changes: string[];
  who: string;
}

type Details = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function limitsOf(value: unknown): Partial<Record<LimitKey, number>> {
  if (typeof value !== "object" || value === null) return {};
  const limits: Partial<Record<LimitKey, number>> = {};
  for (const key of LIMIT_KEYS) {
    const limit = (value as Details)[key];
    if (typeof limit === "number") limits[key] = limit;
  }
  return limits;
}

/**
 * `planTitle` names a plan by its code (the log keeps codes). An own limit missing from one side
 * of a change is the plan's.
 */
export function describeActivity(
  entry: OrganizationActivityEntry,
  t: TFunction,
  language: string,
  planTitle: (code: string) => string,
): ActivityText {
  const details = entry.details;
  const who = entry.actor
    ? t("admin.by", { email: entry.actor.email })
    : details.source === "billing"
      ? t("admin.by_billing")
      : t("admin.by_system");

  if (entry.action === "plan.changed") {
    const from = text(details.from);
    const to = text(details.to);
    const toTitle = to ? planTitle(to) : t("admin.unknown_plan");
    const summary = from
      ? t("admin.activity_plan", { from: planTitle(from), to: toTitle })
      : t("admin.activity_plan_set", { to: toTitle });
    return { summary, changes: [], who };
  }

  if (entry.action === "limits.changed") {
    const from = limitsOf(details.from);
    const to = limitsOf(details.to);
    const value = (key: LimitKey, limit: number | undefined) =>
      limit === undefined
        ? t("admin.plans_limit")
        : formatLimit(key, limit, language, t("pricing.unlimited"));
    const changes = LIMIT_KEYS.filter((key) => from[key] !== to[key]).map((key) =>
      t("admin.activity_limit_change", {
        limit: t(`usage.${LIMIT_NAME[key]}`),
        from: value(key, from[key]),
        to: value(key, to[key]),
      }),
    );
    const summary = changes.length > 0 ? t("admin.activity_limits") : t("admin.activity_limits_same");
    return { summary, changes, who };
  }

  return { summary: t("admin.activity_unknown", { action: entry.action }), changes: [], who };
}
