// What lifts a plan limit on this instance, as the organization's usage says: a larger plan where
// organizations pay for plans, else the instance's administrator (by address when known).
import { useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { fetchUsage, type OrganizationUsage, planKeys } from "../api/plans.ts";

export interface LimitWayOut {
  managedBy: OrganizationUsage["limits_managed_by"];
  email: string | null;
  /** The sentence that ends a limit message: "Ask the administrator … (x@y) to raise the limit." */
  text: string;
}

export function limitWayOut(
  usage: Pick<OrganizationUsage, "limits_managed_by" | "administrator_email"> | null | undefined,
  t: TFunction,
): LimitWayOut | null {
  // Usage read from elsewhere (the profile's counters) says nothing about who lifts limits.
  if (!usage?.limits_managed_by) return null;
  const email = usage.administrator_email ?? null;
  if (usage.limits_managed_by === "billing") {
    return { managedBy: "billing", email: null, text: t("plan.way_out_billing") };
  }
  const text = email ? t("plan.way_out_administrator", { email }) : t("plan.way_out_administrator_unknown");
  return { managedBy: "administrator", email, text };
}

/** A limit message followed by its way out, once the usage is known. */
export function withWayOut(message: string, wayOut: LimitWayOut | null): string {
  return wayOut ? `${message} ${wayOut.text}` : message;
}

/** The way out of `orgId`'s limits, read from its usage (cached per organization). */
export function useLimitWayOut(orgId: number | null, enabled = true): LimitWayOut | null {
  const { t } = useTranslation();
  const usage = useQuery({
    queryKey: planKeys.usage(orgId ?? 0),
    queryFn: () => fetchUsage(orgId ?? 0),
    enabled: enabled && orgId !== null,
  });
  return limitWayOut(usage.data, t);
}
