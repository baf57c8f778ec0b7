import type { Database } from "../../platform/db/client.ts";
import type { PersonalDataSection } from "../../platform/personal-data.ts";
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
