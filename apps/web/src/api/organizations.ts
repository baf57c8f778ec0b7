// Organizations: create, read, change, logo, deletion and ownership transfer.
import type {
  CreateOrganizationInput,
  DeleteOrganizationInput,
  DetailResponse,
  Organization,
  OwnerTransferInput,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { CreateOrganizationInput, Organization };

export const organizationKeys = {
  detail: (id: number) => ["organization", id] as const,
};

export function createOrganization(input: CreateOrganizationInput) {
  return api.post<Organization>("/api/organizations/", input);
}

export function fetchOrganization(id: number) {
  return api.get<Organization>(`/api/organizations/${id}/`);
}

/** Asks the server to tell the owner that a plan limit is critical (sent at most once a day). */
/** A new SDK key for the organization; apps built with the old one stop checking for updates. */
export function rotateSdkKey(id: number) {
  return api.get<Organization>(`/api/organizations/${id}/`, { query: { newsdkkey: 1 } });
}

export function notifyLimitCritical(id: number) {
  return api.get<Organization>(`/api/organizations/${id}/`, { query: { sendemaillimit: 1 } });
}

/** PUT carries the whole form: the title and the subdomain. */
export function updateOrganization(id: number, input: CreateOrganizationInput) {
  return api.put<Organization>(`/api/organizations/${id}/`, input);
}

export function uploadOrganizationLogo(id: number, file: File) {
  const form = new FormData();
  form.append("logo", file);
  return api.patch<Organization>(`/api/organizations/${id}/`, form);
}

export function deleteOrganization(organization: number, password: string) {
  return api.post<DetailResponse>("/api/organization/delete/", {
    organization,
    password,
  } satisfies DeleteOrganizationInput);
}

export function transferOwnership(organization: number, user: number) {
  return api.post<DetailResponse>("/api/organization/owner-transfer/", {
    organization,
    user,
  } satisfies OwnerTransferInput);
}
