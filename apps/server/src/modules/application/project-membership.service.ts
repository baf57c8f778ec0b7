/**
 * Project membership as other modules need it: staff keeps a member's projects in step with
 * the membership, and sending builds checks who may receive them. The rows are this module's.
 */
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { PersonalDataSection } from "../../platform/personal-data.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import {
  findProjectIdsInOrganization,
  findProjectMembersOfUsers,
  listProjectIdsOfUsers,
  listProjectMembershipsOfUser,
  type ProjectMemberRow,
  replaceUserProjects,
} from "./project-member.repo.ts";

export class ProjectMembershipService {
  constructor(private readonly deps: { db: Database; organizations: OrganizationService }) {}

  /** The projects of each user in the organization, keyed by user id. */
  async projectIdsByUser(organizationId: number, userIds: number[], db = this.deps.db) {
    const byUser = new Map<number, number[]>();
    for (const row of await listProjectIdsOfUsers(db, organizationId, [...new Set(userIds)])) {
      byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.projectId]);
    }
    return byUser;
  }

  /** Those of `ids` that are projects of the organization. */
  projectsInOrganization(organizationId: number, ids: number[], db = this.deps.db): Promise<number[]> {
    return findProjectIdsInOrganization(db, organizationId, [...new Set(ids)]);
  }

  async assertProjectsInOrganization(organizationId: number, ids: number[], db = this.deps.db) {
    const found = new Set(await this.projectsInOrganization(organizationId, ids, db));
    const missing = [...new Set(ids)].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw AppError.validation({
        projects: [`Unknown projects in this organization: ${missing.join(", ")}.`],
      });
    }
  }

  /** Makes `projectIds` the user's projects in the organization; kept ones keep their settings. */
  replaceUserProjects(
    organizationId: number,
    userId: number,
    projectIds: number[],
    role: number,
    db = this.deps.db,
  ): Promise<void> {
    return replaceUserProjects(db, organizationId, userId, [...new Set(projectIds)], role);
  }

  /** The project memberships of these users (all members when `userIds` is left out). */
  async membersOfProject(projectId: number, userIds?: number[], db = this.deps.db) {
    const rows = await findProjectMembersOfUsers(db, projectId, userIds);
    return new Map<number, ProjectMemberRow>(rows.map((row) => [row.userId, row]));
  }

  readonly personalData: PersonalDataSection = {
    name: "projects",
    load: async (person) => {
      const rows = await listProjectMembershipsOfUser(this.deps.db, person.id);
      const titles = await this.deps.organizations.getTitles(rows.map((row) => row.organizationId));
      return rows.map((row) => ({
        project_id: row.projectId,
        title: row.projectTitle,
        org_id: row.organizationId,
        org_title: titles.get(row.organizationId) ?? "",
        role: row.role,
        is_access_all_envs: row.isAccessAllEnvs,
        access_envs: row.accessEnvs,
        joined_at: row.joinedAt.toISOString(),
      }));
    },
  };
}
