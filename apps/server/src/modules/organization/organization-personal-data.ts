import type { Database } from "../../platform/db/client.ts";
import type { PersonalDataSection } from "../../platform/personal-data.ts";
import { listLiveInvitationsOfUser } from "./invitation.repo.ts";
import { listAllMembershipsOfUser } from "./membership.repo.ts";

const roleNames: Record<number, string> = {
  1: "owner",
  2: "admin",
  3: "mobile user",
  4: "team manager",
  5: "tester",
};

/** The organizations a person belongs to, with their role (a personal data export section). */
export function organizationPersonalData(db: Database): PersonalDataSection {
  return {
    name: "organizations",
    load: async (person) =>
      (await listAllMembershipsOfUser(db, person.id)).map((row) => ({
        org_id: row.organizationId,
        title: row.organizationTitle,
        subdomain: row.subdomain,
        role: row.role,
        role_name: roleNames[row.role] ?? null,
        joined_at: row.joinedAt.toISOString(),
      })),
  };
}

/** Invitations waiting for the person's answer, as the inviting organizations see them. */
export function invitationPersonalData(db: Database): PersonalDataSection {
  return {
    name: "invitations",
    load: async (person, now) =>
      (await listLiveInvitationsOfUser(db, person.id, now)).map(({ invitation, organizationTitle }) => ({
        org_id: invitation.organizationId,
        title: organizationTitle,
        email: invitation.email,
        first_name: invitation.firstName,
        last_name: invitation.lastName,
        role: invitation.role,
        role_name: roleNames[invitation.role] ?? null,
        invited_at: invitation.createdAt.toISOString(),
        expires_at: invitation.expiresAt.toISOString(),
      })),
  };
}
