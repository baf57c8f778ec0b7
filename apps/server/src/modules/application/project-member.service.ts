/**
 * Owns project membership: who belongs to a project, with which role and which environments.
 * Admins of the organization reach every project without a membership; the application module
 * enforces the environments on reads and downloads.
 */
import type {
  CreateProjectMemberInput,
  ProjectCombinedUser,
  ProjectMember,
  UpdateProjectMemberInput,
} from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import type { AccountService } from "../auth/account.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { isAdminRole, roles } from "../organization/roles.ts";
import { type AppAction, canOnApp, canSeeApp } from "./application.policy.ts";
import type { ApplicationService } from "./application.service.ts";
import {
  deleteProjectMember,
  findProject,
  findProjectMember,
  findProjectMemberByUser,
  findProjectMemberViews,
  insertProjectMember,
  listProjectMembers,
  type ProjectMemberView,
  updateProjectMember,
} from "./project-member.repo.ts";

/** Administrators reach every project; an organization has a handful, this bounds the query. */
const maxAdminsListed = 1000;

export class ProjectMemberService {
  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      organizations: OrganizationService;
      apps: ApplicationService;
      accounts: Pick<AccountService, "resendInvitation">;
    },
  ) {}

  /** The project, when the caller may act on it: 404 outside the organization or the project. */
  private async getProject(userId: number, projectId: number, action: AppAction, db = this.deps.db) {
    const project = await findProject(db, projectId);
    if (!project) throw AppError.notFound();
    const member = await this.deps.membership.findMembership(userId, project.organizationId, db);
    if (!member) throw AppError.notFound();
    const visible =
      isAdminRole(member.role) || (await findProjectMemberByUser(db, project.id, userId)) !== null;
    if (!canSeeApp(member.role, { visible })) throw AppError.notFound();
    if (!canOnApp(member.role, action, { visible })) throw AppError.forbidden();
    return project;
  }

  async list(
    userId: number,
    query: { project: number; search?: string },
    params: PageParams,
  ): Promise<{ count: number; results: ProjectMember[] }> {
    const project = await this.getProject(userId, query.project, "project-member:read");
    const page = await listProjectMembers(this.deps.db, project.id, query.search, {
      offset: params.offset,
      limit: params.pageSize,
    });
    return { count: page.count, results: page.rows.map(present) };
  }

  /** Sends the organization invitation again to a member who has not accepted it yet. */
  async resendInvitation(
    userId: number,
    query: { project: number; user?: number; id?: number },
  ): Promise<{ detail: string }> {
    const project = await this.getProject(userId, query.project, "project-member:manage");
    const row = query.id
      ? await findProjectMember(this.deps.db, query.id)
      : query.user
        ? await findProjectMemberByUser(this.deps.db, project.id, query.user)
        : null;
    if (!query.id && !query.user) throw AppError.validation({ user: ["Give the member to invite again."] });
    if (!row || row.projectId !== project.id) throw AppError.notFound();
    const target = await this.deps.membership.findMembership(row.userId, project.organizationId);
    if (!target) throw AppError.notFound();
    await this.deps.accounts.resendInvitation(row.userId, {
      invitedByUserId: userId,
      organizationTitle: await this.deps.organizations.getTitle(project.organizationId),
      organizationId: project.organizationId,
    });
    return { detail: "The invitation has been sent again." };
  }

  async create(userId: number, input: CreateProjectMemberInput): Promise<ProjectMember> {
    const project = await this.getProject(userId, input.project, "project-member:manage");
    const target = await this.deps.membership.findMembership(input.user, project.organizationId);
    if (!target) throw AppError.validation({ user: ["The user must be a member of the organization."] });
    const row = await insertProjectMember(this.deps.db, {
      projectId: project.id,
      userId: input.user,
      role: input.role,
      isAccessAllEnvs: input.is_access_all_envs,
      accessEnvs: input.is_access_all_envs ? [] : [...new Set(input.access_envs)],
    });
    if (!row) throw AppError.validation({ user: ["The user is already a member of this project."] });
    return this.get(row.id);
  }

  async update(userId: number, id: number, input: UpdateProjectMemberInput): Promise<ProjectMember> {
    const row = await findProjectMember(this.deps.db, id);
    if (!row) throw AppError.notFound();
    await this.getProject(userId, row.projectId, "project-member:manage");
    if (
      (input.user !== undefined && input.user !== row.userId) ||
      (input.project !== undefined && input.project !== row.projectId)
    ) {
      throw AppError.validation({
        non_field_errors: ["The user and the project of a membership cannot change."],
      });
    }
    await updateProjectMember(this.deps.db, row.id, {
      role: input.role,
      isAccessAllEnvs: input.is_access_all_envs,
      accessEnvs: input.is_access_all_envs ? [] : [...new Set(input.access_envs)],
    });
    return this.get(row.id);
  }

  async remove(userId: number, id: number): Promise<void> {
    const row = await findProjectMember(this.deps.db, id);
    if (!row) throw AppError.notFound();
    await this.getProject(userId, row.projectId, "project-member:manage");
    await deleteProjectMember(this.deps.db, row.id);
  }

  /**
   * Everyone who reaches the app's project: the organization's admins (every environment) first,
   * then the project's other members with their environments.
   */
  async combined(
    userId: number,
    appId: number,
    query: { project?: number },
    params: PageParams,
  ): Promise<{ count: number; results: ProjectCombinedUser[] }> {
    const { app } = await this.deps.apps.getAccessibleApp(userId, appId, "project-member:read");
    if (query.project !== undefined && query.project !== app.projectId) throw AppError.notFound();
    const [{ rows: admins }, members] = await Promise.all([
      this.deps.membership.listMembers(app.organizationId, {
        roles: [roles.owner, roles.admin],
        order: "role",
        limit: maxAdminsListed,
        offset: 0,
      }),
      listProjectMembers(this.deps.db, app.projectId, undefined),
    ]);
    const adminIds = new Set(admins.map((a) => a.userId));
    const ownMembership = new Map(members.rows.map((m) => [m.userId, m]));
    const orgRoles = await this.deps.membership.rolesOf(
      app.organizationId,
      members.rows.map((m) => m.userId),
    );
    const all: ProjectCombinedUser[] = [
      ...admins.map((a) => ({
        id: ownMembership.get(a.userId)?.id ?? null,
        user: a.userId,
        email: a.email,
        first_name: a.firstName,
        last_name: a.lastName,
        org_role: a.role,
        role: a.role,
        is_admin: true,
        is_access_all_envs: true,
        access_envs: [],
      })),
      ...members.rows
        .filter((m) => !adminIds.has(m.userId) && orgRoles.has(m.userId))
        .map((m) => ({
          id: m.id,
          user: m.userId,
          email: m.email,
          first_name: m.firstName,
          last_name: m.lastName,
          org_role: orgRoles.get(m.userId) ?? m.role,
          role: m.role,
          is_admin: false,
          is_access_all_envs: m.isAccessAllEnvs,
          access_envs: m.accessEnvs,
        })),
    ];
    return { count: all.length, results: all.slice(params.offset, params.offset + params.pageSize) };
  }

  private async get(id: number): Promise<ProjectMember> {
    const [row] = await findProjectMemberViews(this.deps.db, [id]);
    if (!row) throw AppError.notFound();
    return present(row);
  }
}

function present(row: ProjectMemberView): ProjectMember {
  return {
    id: row.id,
    user: row.userId,
    project: row.projectId,
    role: row.role,
    is_access_all_envs: row.isAccessAllEnvs,
    access_envs: row.accessEnvs,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    is_pending: !row.isActive,
  };
}
