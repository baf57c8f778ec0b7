// The published plans (tariffs) and an organization's usage against its plan.
import type { OrganizationUsage, Page, Tariff } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { OrganizationUsage, Tariff };

export const planKeys = {
  tariffs: () => ["tariffs"] as const,
  usage: (orgId: number) => ["usage", orgId] as const,
};

/** The pricing page's read: accepts both a bare list and a paginated envelope. */
export async function fetchTariffs(): Promise<Tariff[]> {
  const reply = await api.get<Tariff[] | Page<Tariff>>("/api/tariffs/");
  return Array.isArray(reply) ? reply : (reply?.results ?? []);
}

/** The plan page's read of the same list, as the server answers it. */
export function fetchPlans() {
  return api.get<Tariff[]>("/api/tariffs/");
}

export function fetchUsage(orgId: number) {
  return api.get<OrganizationUsage>("/api/organization/usage/", { query: { org: orgId } });
}
