// The instance administrators' calls: every organization of the instance, its plan and own limits,
// and its activity log.
import type {
  AdminOrganization,
  AdminOrganizationPatch,
  OrganizationActivityEntry,
  OrganizationLimits,
  Page,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { AdminOrganization, AdminOrganizationPatch, OrganizationActivityEntry, OrganizationLimits };

export const ADMIN_ORGANIZATIONS_PAGE_SIZE = 20;
export const ADMIN_ACTIVITY_PAGE_SIZE = 10;

/** The limits an administrator can set, in the order the screens show them. */
export const LIMIT_KEYS = ["space_limit", "build_limit", "projects_limit", "user_limit"] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

export const adminKeys = {
  all: () => ["admin-organizations"] as const,
  list: (page: number, search: string) => ["admin-organizations", "list", page, search] as const,
  activity: (id: number, page: number) => ["admin-organizations", id, "activity", page] as const,
};

export function fetchAdminOrganizations(page: number, search: string) {
  return api.get<Page<AdminOrganization>>("/api/admin/organizations/", {
    query: { page, page_size: ADMIN_ORGANIZATIONS_PAGE_SIZE, search: search || undefined },
  });
}

/** `plan` by code; in `limits` a number sets the organization's own limit, null returns it to the plan's. */
export function updateAdminOrganization(id: number, patch: AdminOrganizationPatch) {
  return api.patch<AdminOrganization>(`/api/admin/organizations/${id}/`, patch);
}

export function fetchOrganizationActivity(id: number, page: number) {
  return api.get<Page<OrganizationActivityEntry>>(`/api/admin/organizations/${id}/activity/`, {
    query: { page, page_size: ADMIN_ACTIVITY_PAGE_SIZE },
  });
}
