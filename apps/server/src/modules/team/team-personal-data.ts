import type { Database } from "../../platform/db/client.ts";
import type { PersonalDataSection } from "../../platform/personal-data.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { listTeamsOfUser } from "./team.repo.ts";

/** The teams a person belongs to (a personal data export section). */
export function teamPersonalData(db: Database, organizations: OrganizationService): PersonalDataSection {
  return {
    name: "teams",
    load: async (person) => {
      const rows = await listTeamsOfUser(db, person.id);
      const titles = await organizations.getTitles(rows.map((row) => row.organizationId));
      return rows.map((row) => ({
        team_id: row.teamId,
        title: row.teamTitle,
        org_id: row.organizationId,
        org_title: titles.get(row.organizationId) ?? "",
      }));
    },
  };
}
