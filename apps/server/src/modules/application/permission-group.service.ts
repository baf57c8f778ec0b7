/**
 * Permission groups (spec's "permission-groups" area; Updraft's /api/groupsinorgs/ and
 * /api/useringrouporg/): owners and admins group members and grant the group projects. What a
 * grant gives is decided where project access is read (application.repo, application-list.repo).
 */
import type {
  CreatePermissionGroupInput,
  OrganizationSelector,
  PermissionGroup,
  UpdatePermissionGroupInput,
  UserInGroups,
  UserInGroupsInput,
} from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import { isUniqueViolation } from "../../platform/db/db-errors.ts";
import type { MemberContext, MembershipService } from "../organization/membership.service.ts";
import { isAdminRole } from "../organization/roles.ts";
import { findProjects } from "./application.repo.ts";
import {
  addUserToGroups,
  deletePermissionGroup,
  findPermissionGroup,
  findPermissionGroupByTitle,
  findPermissionGroupsOf,
  groupContents,
  groupsOfUser,
  insertPermissionGroup,
  listPermissionGroups,
  type PermissionGroupRow,
  renamePermissionGroup,
  replaceGroupMembers,
  replaceGroupProjects,
} from "./permission-group.repo.ts";

const titleTaken = () => AppError.validation({ title: ["A group with this title already exists."] });

function assertManages(member: MemberContext): void {
  if (!isAdminRole(member.role)) throw AppError.forbidden();
}

export class PermissionGroupService {
  constructor(private readonly deps: { db: Database; membership: MembershipService }) {}

  async list(userId: number, query: OrganizationSelector & { s?: string }, params: PageParams) {
    const member = await this.deps.membership.resolveMembership(userId, query);
    assertManages(member);
    const page = await listPermissionGroups(this.deps.db, member.organizationId, {
      search: query.s || undefined,
      limit: params.pageSize,
      offset: params.offset,
    });
    return { count: page.count, results: await this.present(page.rows) };
  }

  async get(userId: number, id: number): Promise<PermissionGroup> {
    const group = await this.findManaged(userId, id);
    return (await this.present([group]))[0] as PermissionGroup;
  }

  async create(userId: number, input: CreatePermissionGroupInput): Promise<PermissionGroup> {
    const member = await this.deps.membership.getMembership(userId, input.organization);
    assertManages(member);
    const organizationId = member.organizationId;
    await this.checkContents(organizationId, input);
    if (await findPermissionGroupByTitle(this.deps.db, organizationId, input.title)) throw titleTaken();
    const group = await this.saving(() =>
      this.deps.db.transaction(async (tx) => {
        const row = await insertPermissionGroup(tx, { organizationId, title: input.title });
        await replaceGroupMembers(tx, row.id, [...new Set(input.users)]);
        await replaceGroupProjects(tx, row.id, [...new Set(input.projects)]);
        return row;
      }),
    );
    return (await this.present([group]))[0] as PermissionGroup;
  }

  async update(userId: number, id: number, input: UpdatePermissionGroupInput): Promise<PermissionGroup> {
    const group = await this.findManaged(userId, id);
    await this.checkContents(group.organizationId, input);
    if (input.title !== undefined) {
      const same = await findPermissionGroupByTitle(this.deps.db, group.organizationId, input.title);
      if (same && same.id !== group.id) throw titleTaken();
    }
    await this.saving(() =>
      this.deps.db.transaction(async (tx) => {
        if (input.title !== undefined) await renamePermissionGroup(tx, group.id, input.title);
        if (input.users !== undefined) await replaceGroupMembers(tx, group.id, [...new Set(input.users)]);
        if (input.projects !== undefined)
          await replaceGroupProjects(tx, group.id, [...new Set(input.projects)]);
      }),
    );
    return this.get(userId, id);
  }

  async remove(userId: number, id: number): Promise<void> {
    const group = await this.findManaged(userId, id);
    await deletePermissionGroup(this.deps.db, group.id);
  }

  /** Puts a member into groups of one organization the caller manages; other groups are kept. */
  async addUser(userId: number, input: UserInGroupsInput): Promise<UserInGroups> {
    const first = await this.findManaged(userId, input.groups[0] as number);
    const organizationId = first.organizationId;
    const groups = [...new Set(input.groups)];
    if ((await findPermissionGroupsOf(this.deps.db, organizationId, groups)).length !== groups.length) {
      throw AppError.validation({ groups: ["Every group must belong to the same organization."] });
    }
    if ((await this.deps.membership.filterMembers(organizationId, [input.user])).size === 0) {
      throw AppError.validation({ user: ["This user is not a member of the organization."] });
    }
    await addUserToGroups(this.deps.db, input.user, groups);
    return { user: input.user, groups: await groupsOfUser(this.deps.db, organizationId, input.user) };
  }

  /** A member's groups: admins may ask about anyone, others about themselves. */
  async groupsOf(userId: number, query: OrganizationSelector & { user: number }): Promise<UserInGroups> {
    const member = await this.deps.membership.resolveMembership(userId, query);
    if (query.user !== userId) assertManages(member);
    return { user: query.user, groups: await groupsOfUser(this.deps.db, member.organizationId, query.user) };
  }

  /** A group of one of the caller's organizations (404 otherwise) that the caller manages (403). */
  private async findManaged(userId: number, id: number): Promise<PermissionGroupRow> {
    const memberships = await this.deps.membership.listMemberships(userId);
    const group = await findPermissionGroup(
      this.deps.db,
      memberships.map((member) => member.organizationId),
      id,
    );
    const member = memberships.find((candidate) => candidate.organizationId === group?.organizationId);
    if (!group || !member) throw AppError.notFound();
    assertManages(member);
    return group;
  }

  /** Projects must be the organization's, users its members. */
  private async checkContents(organizationId: number, input: { projects?: number[]; users?: number[] }) {
    const projects = [...new Set(input.projects ?? [])];
    if ((await findProjects(this.deps.db, organizationId, projects)).length !== projects.length) {
      throw AppError.validation({ projects: ["Every project must belong to the organization."] });
    }
    const users = [...new Set(input.users ?? [])];
    if ((await this.deps.membership.filterMembers(organizationId, users)).size !== users.length) {
      throw AppError.validation({ users: ["Every user must be a member of the organization."] });
    }
  }

  /** Two admins naming groups alike at once: the unique index decides, as the same 400. */
  private async saving<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error, "permission_groups_org_title_key")) throw titleTaken();
      throw error;
    }
  }

  private async present(rows: PermissionGroupRow[]): Promise<PermissionGroup[]> {
    const { members, granted } = await groupContents(
      this.deps.db,
      rows.map((row) => row.id),
    );
    return Promise.all(
      rows.map(async (row) => {
        // People who left the organization keep no rights through its groups and are not shown.
        const current = await this.deps.membership.filterMembers(
          row.organizationId,
          members.get(row.id) ?? [],
        );
        const users = (members.get(row.id) ?? []).filter((id) => current.has(id));
        return {
          id: row.id,
          title: row.title,
          organization: row.organizationId,
          members: users.length,
          users,
          projects: granted.get(row.id) ?? [],
          created_at: row.createdAt.toISOString(),
        };
      }),
    );
  }
}
