// Members of an organization, user search and teams.
import type { ApplicationRecord } from "@tarmac/contracts";
import { api } from "./client.ts";
import type { Page } from "./content.ts";

/** The largest page the applications list answers; enough projects for a picker. */
const PROJECT_LOOKUP_SIZE = 100;

export interface Membership {
  id: number;
  userid: number;
  email: string;
  first_name: string;
  last_name: string;
  role: number;
  organization: number;
  teams: number[];
  projects: number[];
  is_active: boolean;
  two_factor_enabled: boolean;
  created_at: string;
}

export interface OrgUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: number;
}

export interface NewMembership {
  /** An existing user's id, or an e-mail address that gets an invitation. */
  userid: number | string;
  organization: number;
  role: number;
  teams: number[];
  projects: number[];
  first_name: string;
  last_name: string;
}

export interface MembershipChange {
  role: number;
  teams: number[];
  projects: number[];
}

export interface Team {
  id: number;
  title: string;
  organization: number;
  users: number[];
}

export interface TeamWithUsers {
  id: number;
  title: string;
  organization: number;
  users: { id: number; email: string; first_name: string; last_name: string }[];
}

export interface Project {
  id: number;
  title?: string;
  project_title?: string;
}

export const STAFF_PAGE_SIZE = 20;

export function fetchMemberships(orgId: number, page: number, search: string) {
  return api.get<Page<Membership>>("/api/usersinorgs/", {
    query: { org: orgId, page, page_size: STAFF_PAGE_SIZE, s: search || undefined },
  });
}

export function createMembership(input: NewMembership) {
  return api.post<Membership>("/api/usersinorgs/", input);
}

export function updateMembership(id: number, change: MembershipChange) {
  return api.patch<Membership>(`/api/usersinorgs/${id}/`, change);
}

export function removeMembership(id: number) {
  return api.delete<null>(`/api/usersinorgs/${id}/`);
}

export function resendInvitation(id: number) {
  return api.get<{ detail: string }>(`/api/usersinorgs/${id}/`, { query: { resend: 1 } });
}

/** POST, not GET: the call changes state, and only non-GET requests carry the anti-forgery header. */
export function disableMemberTwoFactor(id: number) {
  return api.post<{ two_factor_enabled: boolean }>(`/api/usersinorgs/${id}/disable2fa/`);
}

export function searchOrgUsers(orgId: number, search: string) {
  return api.get<Page<OrgUser>>("/api/orgs-users/", { query: { org: orgId, search } });
}

export function fetchTeams(orgId: number) {
  return api.get<Page<TeamWithUsers>>("/api/orgs-teams/", { query: { org: orgId, page_size: 100 } });
}

export function createTeam(input: { title: string; organization: number; users: number[] }) {
  return api.post<Team>("/api/teams/", input);
}

export function saveTeam(team: Team) {
  return api.put<Team>(`/api/teams/${team.id}/`, {
    title: team.title,
    organization: team.organization,
    users: team.users,
  });
}

export function deleteTeam(id: number) {
  return api.delete<null>(`/api/teams/${id}/`);
}

/**
 * The organization's projects, read from its apps: each project appears once (under its id,
 * project_app), however many platforms and environments it has.
 */
export async function fetchProjects(orgId: number): Promise<Project[]> {
  const reply = await api.get<Page<ApplicationRecord>>("/api/applications/", {
    query: { org: orgId, page_size: PROJECT_LOOKUP_SIZE },
  });
  const projects = new Map<number, Project>();
  for (const app of reply.results) {
    if (!projects.has(app.project_app)) {
      projects.set(app.project_app, { id: app.project_app, project_title: app.project_title });
    }
  }
  return [...projects.values()];
}
