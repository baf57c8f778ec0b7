// Organizations, their plan usage and the published plans.
import type { Organization, OrganizationUsage } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { Organization, OrganizationUsage };

import type { Page, Tariff } from "./content.ts";

export interface OrganizationInput {
  title: string;
  subdomain: string;
}

export function createOrganization(input: OrganizationInput) {
  return api.post<Organization>("/api/organizations/", input);
}

export function fetchOrganization(id: number) {
  return api.get<Organization>(`/api/organizations/${id}/`);
}

/** Asks the server to tell the owner that a plan limit is critical (sent at most once a day). */
export function notifyLimitCritical(id: number) {
  return api.get<Organization>(`/api/organizations/${id}/`, { query: { sendemaillimit: 1 } });
}

export function updateOrganization(id: number, input: OrganizationInput) {
  return api.put<Organization>(`/api/organizations/${id}/`, input);
}

export function uploadOrganizationLogo(id: number, file: File) {
  const form = new FormData();
  form.append("logo", file);
  return api.patch<Organization>(`/api/organizations/${id}/`, form);
}

export function deleteOrganization(organization: number, password: string) {
  return api.post<{ detail: string }>("/api/organization/delete/", { organization, password });
}

export function transferOwnership(organization: number, user: number) {
  return api.post<{ detail: string }>("/api/organization/owner-transfer/", { organization, user });
}

export function fetchUsage(orgId: number) {
  return api.get<OrganizationUsage>("/api/organization/usage/", { query: { org: orgId } });
}

export function fetchPlans() {
  return api.get<Tariff[]>("/api/tariffs/");
}

export type { Page };
