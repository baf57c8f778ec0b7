// The organization's projects. There is no project list call: projects are read from the apps.
import type { ApplicationRecord, Page } from "@tarmac/contracts";
import { api } from "./client.ts";

/** A project under its id (the apps' `project_app`) with its title. */
export type Project = { id: ApplicationRecord["project_app"] } & Pick<ApplicationRecord, "project_title">;

/** The largest page the applications list answers; enough projects for a picker. */
const PROJECT_LOOKUP_SIZE = 100;

export const projectKeys = {
  list: (orgId: number) => ["projects", orgId] as const,
};

/** Each project appears once, however many platforms and environments it has. */
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
