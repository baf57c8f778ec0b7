// Teams of an organization.
import type { CreateTeamInput, OrgTeam, Page, Team, UpdateTeamInput } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { OrgTeam, Team };

export const teamKeys = {
  list: (orgId: number) => ["teams", orgId] as const,
};

/** The teams with their members' names; one page holds them all. */
export function fetchTeams(orgId: number) {
  return api.get<Page<OrgTeam>>("/api/orgs-teams/", { query: { org: orgId, page_size: 100 } });
}

export function createTeam(input: CreateTeamInput) {
  return api.post<Team>("/api/teams/", input);
}

export function saveTeam(team: Team) {
  return api.put<Team>(`/api/teams/${team.id}/`, {
    title: team.title,
    organization: team.organization,
    users: team.users,
  } satisfies UpdateTeamInput);
}

export function deleteTeam(id: number) {
  return api.delete<null>(`/api/teams/${id}/`);
}
