// Members of an organization (memberships) and the organization's users for pickers.
import type {
  CreateMembershipRequest,
  DetailResponse,
  Invitation,
  Membership,
  OrgUser,
  Page,
  PatchMembershipInput,
  TwoFactorDisabled,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { AssignableRole } from "@tarmac/contracts";
export type { CreateMembershipRequest, Membership, OrgUser, PatchMembershipInput };

export const STAFF_PAGE_SIZE = 20;

export const staffKeys = {
  all: (orgId: number) => ["staff", orgId] as const,
  list: (orgId: number, page: number, search: string) => ["staff", orgId, page, search] as const,
  /** The caller's own membership, found by searching the list for their e-mail address. */
  own: (orgId: number, email: string) => ["staff", orgId, 1, email, "own"] as const,
  /** The add-user search; not under `all`, so member changes do not refetch it. */
  userSearch: (orgId: number, search: string) => ["user-search", orgId, search] as const,
};

export function fetchMemberships(orgId: number, page: number, search: string) {
  return api.get<Page<Membership>>("/api/usersinorgs/", {
    query: { org: orgId, page, page_size: STAFF_PAGE_SIZE, s: search || undefined },
  });
}

/** An invitation by address: the person becomes a member once they accept it. */
export function inviteMember(input: CreateMembershipRequest) {
  return api.post<Invitation>("/api/usersinorgs/", input);
}

export function updateMembership(id: number, change: PatchMembershipInput) {
  return api.patch<Membership>(`/api/usersinorgs/${id}/`, change);
}

export function removeMembership(id: number) {
  return api.delete<null>(`/api/usersinorgs/${id}/`);
}

export function resendInvitation(id: number) {
  return api.get<DetailResponse>(`/api/usersinorgs/${id}/`, { query: { resend: 1 } });
}

/** POST, not GET: the call changes state, and only non-GET requests carry the anti-forgery header. */
export function disableMemberTwoFactor(id: number) {
  return api.post<TwoFactorDisabled>(`/api/usersinorgs/${id}/disable2fa/`);
}

export function searchOrgUsers(orgId: number, search: string) {
  return api.get<Page<OrgUser>>("/api/orgs-users/", { query: { org: orgId, search } });
}
