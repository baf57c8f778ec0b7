// Members of a project (spec §7 usersinproject) and the combined view with organization admins.
import type {
  CreateProjectMemberInput,
  DetailResponse,
  Page,
  ProjectCombinedUser,
  ProjectMember,
  UpdateProjectMemberInput,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { ProjectCombinedUser, ProjectMember };
export type ProjectMemberInput = Omit<CreateProjectMemberInput, "user" | "project">;

/** Spec §9 default page sizes. */
export const PROJECT_MEMBERS_PAGE_SIZE = 20;
export const COMBINED_USERS_PAGE_SIZE = 10;

export const projectMemberKeys = {
  all: (projectId: number) => ["project-members", projectId] as const,
  list: (projectId: number, page: number, search: string) =>
    ["project-members", projectId, "list", page, search] as const,
  combined: (projectId: number, page: number) => ["project-members", projectId, "combined", page] as const,
  /** The member dialog's search of the organization's users; a cache apart from the staff page's. */
  userSearch: (orgId: number, search: string) => ["project-members", "user-search", orgId, search] as const,
};

export function listProjectMembers(projectId: number, page: number, search: string) {
  return api.get<Page<ProjectMember>>("/api/usersinproject/", {
    query: { project: projectId, page, page_size: PROJECT_MEMBERS_PAGE_SIZE, search: search || undefined },
  });
}

export function addProjectMember(input: CreateProjectMemberInput) {
  return api.post<ProjectMember>("/api/usersinproject/", input);
}

export function updateProjectMember(id: number, input: UpdateProjectMemberInput) {
  return api.put<ProjectMember>(`/api/usersinproject/${id}/`, input);
}

export function removeProjectMember(id: number) {
  return api.delete<null>(`/api/usersinproject/${id}/`);
}

export function resendProjectInvitation(projectId: number, memberId: number) {
  return api.get<DetailResponse>("/api/usersinproject/", {
    query: { project: projectId, resend: 1, id: memberId },
  });
}

export function listCombinedUsers(appId: number, projectId: number, page: number) {
  return api.get<Page<ProjectCombinedUser>>(`/api/applications/${appId}/project_combined_users/`, {
    query: { project: projectId, page, page_size: COMBINED_USERS_PAGE_SIZE },
  });
}
