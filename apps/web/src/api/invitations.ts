// Invitations to join an organization: the signed-in person's own, and an organization's (admins).
import type { DetailResponse, Invitation, Membership, MyInvitation, Page } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { Invitation, MyInvitation };

export const INVITATIONS_PAGE_SIZE = 20;

export const invitationKeys = {
  mine: () => ["invitations", "mine"] as const,
  organization: (orgId: number) => ["invitations", "organization", orgId] as const,
  page: (orgId: number, page: number) => ["invitations", "organization", orgId, page] as const,
};

/** The signed-in person's invitations waiting for an answer. */
export function fetchMyInvitations() {
  return api.get<MyInvitation[]>("/api/invitations/");
}

/** Accepting makes the person a member: the answer is the new membership. */
export function acceptInvitation(id: number) {
  return api.post<Membership>(`/api/invitations/${id}/accept/`);
}

export function declineInvitation(id: number) {
  return api.post<null>(`/api/invitations/${id}/decline/`);
}

/** An organization's invitations not answered yet; each holds a seat of the plan. */
export function fetchOrgInvitations(orgId: number, page: number) {
  return api.get<Page<Invitation>>("/api/orgs-invitations/", {
    query: { org: orgId, page, page_size: INVITATIONS_PAGE_SIZE },
  });
}

export function resendOrgInvitation(id: number) {
  return api.post<DetailResponse>(`/api/orgs-invitations/${id}/resend/`);
}

export function cancelOrgInvitation(id: number) {
  return api.delete<null>(`/api/orgs-invitations/${id}/`);
}
