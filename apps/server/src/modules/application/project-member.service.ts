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
import { CatalogRows } from "../../platform/cache/catalog-rows.ts";
import { GenerationCache } from "../../platform/cache/generation-cache.ts";
import { keptRecords, type ListCaches, pageOfList } from "../../platform/cache/list-caches.ts";
import type { Database } from "../../platform/db/client.ts";
import { arrangeByIds } from "../../platform/db/id-list.ts";
import type { AccountService } from "../auth/account.service.ts";
import {
  type Caller,
  carried,
  type MembershipService,
  userIdOf,
} from "../organization/membership.service.ts";
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
  listProjectMemberSearchTexts,
  listProjectMembers,
  type ProjectMemberView,
  type ProjectRow,
  updateProjectMember,
} from "./project-member.repo.ts";

/** Administrators reach every project; an organization has a handful, this bounds the query. */
const maxAdminsListed = 1000;

export class ProjectMemberService {
  /** Each project's combined list (admins, then members), per directory version (see combined). */
  private readonly combinedLists = new GenerationCache<ProjectCombinedUser[]>({
    maxEntries: 1_000,
    maxAgeMs: 10 * 60 * 1000,
    weigh: (list) => list.length,
    maxWeight: 200_000,
  });
  /** Project rows, kept per their organization's catalog version (projects never move). */
  private readonly projectRows = new CatalogRows<ProjectRow>();
  /** Project members as listed, per directory version (see list). */
  private readonly memberRecords = new GenerationCache<ProjectMember>({
    maxEntries: 50_000,
    maxAgeMs: 10 * 60 * 1000,
  });

  constructor(
    private readonly deps: {
      db: Database;
      membership: MembershipService;
      /** Each project's members with their search texts, per directory version (see list). */
      lists: ListCaches;
      organizations: OrganizationService;
      apps: ApplicationService;
      accounts: Pick<AccountService, "resendInvitation">;
    },
  ) {}

  /** The project, when the caller may act on it: 404 outside the organization or the project. */
  private async getProject(caller: Caller, projectId: number, action: AppAction, db = this.deps.db) {
    return (await this.getProjectAndMember(caller, projectId, action, db)).project;
  }

  /** As getProject, with the caller's membership in the project's organization. */
  private async getProjectAndMember(caller: Caller, projectId: number, action: AppAction, db = this.deps.db) {
    const project = await this.projectRows.get(
      `project ${projectId}`,
      carried(caller, db, this.deps.db),
      () => findProject(db, projectId),
    );
    if (!project) throw AppError.notFound();
    const member = await this.deps.membership.findMembership(caller, project.organizationId, db);
    if (!member) throw AppError.notFound();
    const visible =
      isAdminRole(member.role) || (await findProjectMemberByUser(db, project.id, userIdOf(caller))) !== null;
    if (!canSeeApp(member.role, { visible })) throw AppError.notFound();
    if (!canOnApp(member.role, action, { visible })) throw AppError.forbidden();
    return { project, member };
  }

  /**
   * A page of the project's members, searched by name or address. The project's list (ids in
   * order with search texts) and each member as shown are kept per directory version, which
   * every change to its members or their names moves: a count, a deep page or a search reads
   * only the rows of the page not seen before.
   */
  async list(
    caller: Caller,
    query: { project: number; search?: string },
    params: PageParams,
  ): Promise<{ count: number; results: ProjectMember[] }> {
    const { project, member } = await this.getProjectAndMember(caller, query.project, "project-member:read");
    const { count, ids } = await pageOfList(
      this.deps.lists,
      {
        key: `project members ${project.id}`,
        generation: member.directoryVersion,
        load: () => listProjectMemberSearchTexts(this.deps.db, project.id),
      },
      query.search,
      { offset: params.offset, limit: params.pageSize },
    );
    const results = await keptRecords(
      this.memberRecords,
      member.directoryVersion,
      ids,
      (id) => `${id}`,
      async (missing) =>
        arrangeByIds(missing, await findProjectMemberViews(this.deps.db, missing)).map((row) => ({
          id: row.id,
          record: present(row),
        })),
    );
    return { count, results };
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
      organization: {
        id: project.organizationId,
        name: await this.deps.organizations.getTitle(project.organizationId),
      },
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
    caller: Caller,
    appId: number,
    query: { project?: number },
    params: PageParams,
  ): Promise<{ count: number; results: ProjectCombinedUser[] }> {
    const { app, member } = await this.deps.apps.getAccessibleApp(caller, appId, "project-member:read");
    if (query.project !== undefined && query.project !== app.projectId) throw AppError.notFound();
    // Everything the list shows (roles, names, project memberships) moves the directory version.
    const all = await this.combinedLists.getOrBuild(`${app.projectId}`, member.directoryVersion, () =>
      this.readCombined(app),
    );
    return { count: all.length, results: all.slice(params.offset, params.offset + params.pageSize) };
  }

  /** The combined list of the app's project, read whole: see combined. */
  private async readCombined(app: {
    organizationId: number;
    projectId: number;
  }): Promise<ProjectCombinedUser[]> {
    const [{ rows: admins }, members] = await Promise.all([
      this.deps.membership.listMembers(app.organizationId, {
        roles: [roles.owner, roles.admin],
        order: "role",
        limit: maxAdminsListed,
        offset: 0,
      }),
      listProjectMembers(this.deps.db, app.projectId),
    ]);
    const adminIds = new Set(admins.map((a) => a.userId));
    const ownMembership = new Map(members.map((m) => [m.userId, m]));
    const orgRoles = await this.deps.membership.rolesOf(
      app.organizationId,
      members.map((m) => m.userId),
    );
    return [
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
      ...members
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
