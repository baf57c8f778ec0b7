/**
 * Owns memberships (the `memberships` table) and with them the tenant boundary: every
 * organization-scoped endpoint asks this service for the caller's membership first. No
 * membership (or an organization being deleted) reads as "not found", so another
 * organization's objects never reveal that they exist.
 */
import type { OrganizationSelector } from "@tarmac/contracts";
import type { Actor, ActorMembership } from "../../http/auth.ts";
import { AppError } from "../../http/errors.ts";
import { GenerationCache } from "../../platform/cache/generation-cache.ts";
import { type IdentityCache, keptUnlessInTransaction } from "../../platform/cache/identity-cache.ts";
import { keptRecords, type ListCaches, pageOfList } from "../../platform/cache/list-caches.ts";
import type { Database } from "../../platform/db/client.ts";
import type { MembershipsReadAlong } from "../users/token.service.ts";
import {
  countMembers,
  deleteMembership,
  findLiveMembership,
  findLiveMembershipBySubdomain,
  findMemberRow,
  findMemberRowOfUser,
  findMemberRowsInOrder,
  findMemberUserIds,
  findOwnerRow,
  findRolesOfUsers,
  insertMembership,
  listLiveMemberships,
  listMemberRows,
  listMemberSearchTexts,
  listUserIdsWithRoles,
  liveMembershipsOf,
  type MemberFilter,
  type MemberRow,
  readCarriedMemberships,
  setRoleOfUser,
  updateMembershipRole,
} from "./membership.repo.ts";
import { lockOrganization } from "./organization.repo.ts";

export type { MemberFilter, MemberRow } from "./membership.repo.ts";

/** A membership with its organization's versions as of the read (they validate cached lists). */
export type MemberContext = ActorMembership;

/** The caller's memberships, read along with the token by the users module (wired in app.ts). */
export const membershipsReadWithToken: MembershipsReadAlong = {
  name: "memberships",
  column: liveMembershipsOf,
  read: readCarriedMemberships,
};

/**
 * Who asks: a user id, or a read-only request's actor, whose memberships came with its token
 * (then checking one costs no statement). A request that changes memberships passes the id.
 */
export type Caller = number | Pick<Actor, "userId" | "memberships">;

export const userIdOf = (caller: Caller): number => (typeof caller === "number" ? caller : caller.userId);

/** The memberships the caller carries, unless the read belongs to a transaction (`db` is not `root`). */
export function carried(caller: Caller, db: Database, root: Database): readonly MemberContext[] | undefined {
  return typeof caller === "number" || db !== root ? undefined : caller.memberships;
}

export class MembershipService {
  /** Members as listed, per directory version (see pageMembers). */
  private readonly memberRows = new GenerationCache<MemberRow>({
    maxEntries: 50_000,
    maxAgeMs: 10 * 60 * 1000,
  });

  constructor(private readonly deps: { db: Database; lists: ListCaches; identity?: IdentityCache }) {}

  /** Reads outside a transaction may be answered by the identity cache (embedded database). */
  private kept<T>(db: Database, key: string, load: () => Promise<T>): Promise<T> {
    return keptUnlessInTransaction(this.deps.identity, { db, root: this.deps.db }, key, load);
  }

  async findMembership(
    caller: Caller,
    organizationId: number,
    db = this.deps.db,
  ): Promise<MemberContext | null> {
    const known = carried(caller, db, this.deps.db);
    if (known) return known.find((member) => member.organizationId === organizationId) ?? null;
    const userId = userIdOf(caller);
    return this.kept(db, `member ${userId} ${organizationId}`, () =>
      findLiveMembership(db, userId, organizationId),
    );
  }

  /** The caller's membership in the organization; 404 when there is none. */
  async getMembership(caller: Caller, organizationId: number, db = this.deps.db): Promise<MemberContext> {
    const found = await this.findMembership(caller, organizationId, db);
    if (!found) throw AppError.notFound();
    return found;
  }

  /**
   * The membership a request means (see organizationSelector): `org`, else the organization
   * with `subdomain`, else the caller's only one. 404 when the caller is not a member there; 400
   * asking for `org` when the caller belongs to several and named none.
   */
  async resolveMembership(caller: Caller, selector: OrganizationSelector): Promise<MemberContext> {
    if (selector.org !== undefined) return this.getMembership(caller, selector.org);
    if (selector.subdomain !== undefined) {
      const found = await findLiveMembershipBySubdomain(this.deps.db, userIdOf(caller), selector.subdomain);
      if (!found) throw AppError.notFound();
      return found;
    }
    const all = await this.listMemberships(caller);
    if (all.length === 1) return all[0] as MemberContext;
    if (all.length === 0) throw AppError.notFound();
    throw AppError.validation({ org: ["This field is required."] });
  }

  /** The organization id a request means; see resolveMembership. */
  async resolveOrganizationId(caller: Caller, selector: OrganizationSelector): Promise<number> {
    return (await this.resolveMembership(caller, selector)).organizationId;
  }

  /** The user's memberships in organizations that are not being deleted, by organization id. */
  async listMemberships(caller: Caller, db = this.deps.db): Promise<MemberContext[]> {
    const known = carried(caller, db, this.deps.db);
    if (known) return [...known];
    const userId = userIdOf(caller);
    return this.kept(db, `memberships ${userId}`, () => listLiveMemberships(db, userId));
  }

  /**
   * Locks the organization row for the rest of `tx` (SELECT ... FOR UPDATE), so changes that
   * count members or usage, like taking the last seat of the plan, happen one at a time. 404 if gone.
   */
  async lockOrganization(organizationId: number, tx: Database): Promise<void> {
    if (!(await lockOrganization(tx, organizationId))) throw AppError.notFound();
  }

  listMembers(organizationId: number, filter: MemberFilter, db = this.deps.db) {
    return listMemberRows(db, organizationId, filter);
  }

  /**
   * One page of the organization's members (membership ids) and their count, searched by name or
   * address when `search` is set, from the member list kept per directory version (see
   * ListCaches): deep pages, counts and searches read nothing.
   */
  pageMemberIds(
    organization: { organizationId: number; directoryVersion: number },
    filter: Pick<MemberFilter, "onlyUserIds" | "roles" | "order">,
    search: string | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ count: number; ids: number[] }> {
    const { organizationId, directoryVersion } = organization;
    return pageOfList(
      this.deps.lists,
      {
        key: `members ${organizationId} ${JSON.stringify(filter)}`,
        generation: directoryVersion,
        load: () => listMemberSearchTexts(this.deps.db, organizationId, filter),
      },
      search,
      page,
    );
  }

  /** The members with these membership ids, in their order. */
  findMembersInOrder(organizationId: number, ids: number[]): Promise<MemberRow[]> {
    return findMemberRowsInOrder(this.deps.db, organizationId, ids);
  }

  /** pageMemberIds with the page's members, each kept per directory version too. */
  async pageMembers(
    organization: { organizationId: number; directoryVersion: number },
    filter: Pick<MemberFilter, "onlyUserIds" | "roles" | "order">,
    search: string | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ count: number; rows: MemberRow[] }> {
    const { organizationId, directoryVersion } = organization;
    const { count, ids } = await this.pageMemberIds(organization, filter, search, page);
    const rows = await keptRecords(
      this.memberRows,
      directoryVersion,
      ids,
      (id) => `${id}`,
      async (missing) =>
        (await this.findMembersInOrder(organizationId, missing)).map((record) => ({ id: record.id, record })),
    );
    return { count, rows };
  }

  /** A membership by id among the given organizations (the caller's), with the person's details. */
  findMember(organizationIds: number[], membershipId: number, db = this.deps.db): Promise<MemberRow | null> {
    return findMemberRow(db, organizationIds, membershipId);
  }

  findMemberByUser(organizationId: number, userId: number, db = this.deps.db): Promise<MemberRow | null> {
    return findMemberRowOfUser(db, organizationId, userId);
  }

  findOwner(organizationId: number, db = this.deps.db): Promise<MemberRow | null> {
    return findOwnerRow(db, organizationId);
  }

  /** Which of `userIds` are members of the organization. */
  async filterMembers(organizationId: number, userIds: number[], db = this.deps.db): Promise<Set<number>> {
    return new Set(await findMemberUserIds(db, organizationId, [...new Set(userIds)]));
  }

  /** Organization roles of the given users; those who are not members are left out. */
  rolesOf(organizationId: number, userIds: number[], db = this.deps.db): Promise<Map<number, number>> {
    return findRolesOfUsers(db, organizationId, [...new Set(userIds)]);
  }

  listUserIdsWithRoles(organizationId: number, roles: number[], db = this.deps.db): Promise<number[]> {
    return listUserIdsWithRoles(db, organizationId, roles);
  }

  async countMembers(organizationIds: number[], db = this.deps.db): Promise<Map<number, number>> {
    return countMembers(db, [...new Set(organizationIds)]);
  }

  addMember(
    row: { organizationId: number; userId: number; role: number; invitedBy?: number },
    db = this.deps.db,
  ): Promise<number> {
    return insertMembership(db, row);
  }

  changeRole(organizationId: number, membershipId: number, role: number, db = this.deps.db): Promise<void> {
    return updateMembershipRole(db, organizationId, membershipId, role);
  }

  changeRoleOfUser(organizationId: number, userId: number, role: number, db = this.deps.db): Promise<void> {
    return setRoleOfUser(db, organizationId, userId, role);
  }

  removeMember(organizationId: number, membershipId: number, db = this.deps.db): Promise<void> {
    return deleteMembership(db, organizationId, membershipId);
  }
}
