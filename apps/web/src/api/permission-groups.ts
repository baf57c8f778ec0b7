// Permission groups of an organization: members grouped to share access to projects.
import type {
  CreatePermissionGroupInput,
  Page,
  PermissionGroup,
  UpdatePermissionGroupInput,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { CreatePermissionGroupInput, PermissionGroup, UpdatePermissionGroupInput };

export const PERMISSION_GROUP_PAGE_SIZE = 20;

export const permissionGroupKeys = {
  all: (orgId: number) => ["permission-groups", orgId] as const,
  list: (orgId: number, page: number, search: string) => ["permission-groups", orgId, page, search] as const,
};

export function fetchPermissionGroups(orgId: number, page: number, search: string) {
  return api.get<Page<PermissionGroup>>("/api/groupsinorgs/", {
    query: { org: orgId, page, page_size: PERMISSION_GROUP_PAGE_SIZE, s: search || undefined },
  });
}

export function createPermissionGroup(input: CreatePermissionGroupInput) {
  return api.post<PermissionGroup>("/api/groupsinorgs/", input);
}

/** PATCH: only the fields given change, and a list given replaces the group's whole list. */
export function updatePermissionGroup(id: number, change: UpdatePermissionGroupInput) {
  return api.patch<PermissionGroup>(`/api/groupsinorgs/${id}/`, change);
}

export function deletePermissionGroup(id: number) {
  return api.delete<null>(`/api/groupsinorgs/${id}/`);
}
