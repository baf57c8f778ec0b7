import { and, asc, count, eq, isNull, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { ActorMembership } from "../../http/auth.ts";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { arrangeByIds, type OrderedList, selectSearchableList } from "../../platform/db/id-list.ts";
import { preparedPerDatabase } from "../../platform/db/prepared.ts";
import { userDirectory } from "../users/users.views.ts";
import { memberships, organizations } from "./organization.tables.ts";

const membershipView = {
  membershipId: memberships.id,
  organizationId: memberships.organizationId,
  userId: memberships.userId,
  role: memberships.role,
  catalogVersion: organizations.catalogVersion,
  directoryVersion: organizations.directoryVersion,
};

/** The tenant boundary: a user's memberships in organizations that are not being deleted. */
function liveMembershipCondition(
  userId: number | Placeholder | AnyPgColumn,
  organizationId?: number | Placeholder,
) {
  return and(
    eq(memberships.userId, userId),
    organizationId === undefined ? undefined : eq(memberships.organizationId, organizationId),
    isNull(organizations.deletingAt),
  );
}

function selectLiveMemberships(
  db: Database,
  userId: number | Placeholder,
  organizationId?: number | Placeholder,
) {
  return db
    .select(membershipView)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(liveMembershipCondition(userId, organizationId));
}

/** The live membership in the organization with this subdomain (case-insensitive). */
export async function findLiveMembershipBySubdomain(db: Database, userId: number, subdomain: string) {
  const [row] = await db
    .select(membershipView)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(
        liveMembershipCondition(userId),
        eq(sql`lower(${organizations.subdomain})`, subdomain.toLowerCase()),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The membership every organization request checks: prepared once (preparedPerDatabase). */
const liveMembershipQuery = preparedPerDatabase((db) =>
  selectLiveMemberships(db, sql.placeholder("userId"), sql.placeholder("organizationId"))
    .limit(1)
    .prepare("live_membership"),
);

export async function findLiveMembership(db: Database, userId: number, organizationId: number) {
  const [row] = await liveMembershipQuery(db).execute({ userId, organizationId });
  return row ?? null;
}

/** At most this many memberships ride along with the token; a user with more has each read on its own. */
const carriedMemberships = 50;

/**
 * The user's live memberships as JSON, a scalar subquery on `userId` for the token's statement
 * (see MembershipsReadAlong): [membership id, organization id, user id, role, catalog version,
 * directory version] each, one more than carried at most, so an overflow shows.
 */
export function liveMembershipsOf(userId: AnyPgColumn): SQL {
  return sql`(select coalesce(json_agg(json_build_array(k.id, k.organization_id, k.user_id, k.role,
      k.catalog_version, k.directory_version) order by k.organization_id), '[]'::json)
    from (select ${memberships.id} as id, ${memberships.organizationId} as organization_id,
        ${memberships.userId} as user_id, ${memberships.role} as role,
        ${organizations.catalogVersion} as catalog_version,
        ${organizations.directoryVersion} as directory_version
      from ${memberships} join ${organizations} on ${eq(organizations.id, memberships.organizationId)}
      where ${liveMembershipCondition(userId)}
      order by ${memberships.organizationId} limit ${sql.raw(String(carriedMemberships + 1))}) k)`;
}

/** liveMembershipsOf's answer as memberships; undefined when there are more than are carried. */
export function readCarriedMemberships(value: unknown): ActorMembership[] | undefined {
  if (!Array.isArray(value) || value.length > carriedMemberships) return undefined;
  return value.map((row: unknown[]) => {
    const [membershipId, organizationId, userId, role, catalogVersion, directoryVersion] = row.map(Number);
    return {
      membershipId: membershipId as number,
      organizationId: organizationId as number,
      userId: userId as number,
      role: role as number,
      catalogVersion: catalogVersion as number,
      directoryVersion: directoryVersion as number,
    };
  });
}

export async function listLiveMemberships(db: Database, userId: number) {
  return selectLiveMemberships(db, userId).orderBy(memberships.organizationId);
}

/** A member as the staff screens show them: the membership with the person's name and address. */
const memberColumns = {
  id: memberships.id,
  userId: memberships.userId,
  organizationId: memberships.organizationId,
  role: memberships.role,
  createdAt: memberships.createdAt,
  email: userDirectory.email,
  firstName: userDirectory.firstName,
  lastName: userDirectory.lastName,
  isActive: userDirectory.isActive,
  twoFactorEnabled: userDirectory.twoFactorEnabled,
};

export type MemberRow = {
  id: number;
  userId: number;
  organizationId: number;
  role: number;
  createdAt: Date;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  twoFactorEnabled: boolean;
};

export interface MemberFilter {
  onlyUserIds?: number[];
  roles?: number[];
  /** Every member when left out (lists that need them all, like the recipients of a build). */
  limit?: number;
  offset?: number;
  /** "role" lists owners and admins first; "email" is alphabetical. */
  order: "role" | "email";
}

export async function listMemberRows(
  db: Database,
  organizationId: number,
  filter: MemberFilter,
): Promise<{ count: number; rows: MemberRow[] }> {
  const where = and(
    eq(memberships.organizationId, organizationId),
    filter.onlyUserIds ? anyOf(memberships.userId, filter.onlyUserIds) : undefined,
    filter.roles ? anyOf(memberships.role, filter.roles) : undefined,
  );
  const [total] = await db
    .select({ value: count() })
    .from(memberships)
    .innerJoin(userDirectory, eq(userDirectory.userId, memberships.userId))
    .where(where);
  const order =
    filter.order === "role" ? [asc(memberships.role), asc(userDirectory.email)] : [asc(userDirectory.email)];
  const query = db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(userDirectory, eq(userDirectory.userId, memberships.userId))
    .where(where)
    .orderBy(...order);
  const rows =
    filter.limit === undefined ? await query : await query.limit(filter.limit).offset(filter.offset ?? 0);
  return { count: total?.value ?? 0, rows };
}

/**
 * Every member the filter keeps, in list order (role then address, or address), with the
 * person's folded search text: kept per directory version, pages and searches come from it.
 */
export function listMemberSearchTexts(
  db: Database,
  organizationId: number,
  filter: Pick<MemberFilter, "onlyUserIds" | "roles" | "order">,
): Promise<OrderedList> {
  const where = and(
    eq(memberships.organizationId, organizationId),
    filter.onlyUserIds ? anyOf(memberships.userId, filter.onlyUserIds) : undefined,
    filter.roles ? anyOf(memberships.role, filter.roles) : undefined,
  );
  const order =
    filter.order === "role" ? [asc(memberships.role), asc(userDirectory.email)] : [asc(userDirectory.email)];
  return selectSearchableList(
    db,
    db
      .select({ id: memberships.id, search: sql<string>`${userDirectory.searchText}`.as("search") })
      .from(memberships)
      .innerJoin(userDirectory, eq(userDirectory.userId, memberships.userId))
      .where(where)
      .orderBy(...order, asc(memberships.id)),
  );
}

const memberRowsQuery = preparedPerDatabase((db) =>
  db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(userDirectory, eq(userDirectory.userId, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, sql.placeholder("organizationId")),
        anyOf(memberships.id, sql.placeholder("ids")),
      ),
    )
    .prepare("member_rows_by_ids"),
);

/** The members with these membership ids, in the order of `ids`. */
export async function findMemberRowsInOrder(db: Database, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return arrangeByIds(ids, await memberRowsQuery(db).execute({ organizationId, ids }));
}

/** A membership by id, only among the given organizations (the caller's). */
export async function findMemberRow(
  db: Database,
  organizationIds: number[],
  membershipId: number,
): Promise<MemberRow | null> {
  if (organizationIds.length === 0) return null;
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(userDirectory, eq(userDirectory.userId, memberships.userId))
    .where(and(eq(memberships.id, membershipId), anyOf(memberships.organizationId, organizationIds)))
    .limit(1);
  return row ?? null;
}

/** A user's membership of an organization, by user (any role). */
export async function findMemberRowOfUser(
  db: Database,
  organizationId: number,
  userId: number,
): Promise<MemberRow | null> {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(userDirectory, eq(userDirectory.userId, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function findOwnerRow(db: Database, organizationId: number): Promise<MemberRow | null> {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(userDirectory, eq(userDirectory.userId, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 1)))
    .limit(1);
  return row ?? null;
}

export async function insertMembership(
  db: Database,
  row: { organizationId: number; userId: number; role: number; invitedBy?: number },
): Promise<number> {
  const [created] = await db.insert(memberships).values(row).returning({ id: memberships.id });
  if (!created) throw new Error("membership insert returned no row");
  return created.id;
}

export async function updateMembershipRole(db: Database, organizationId: number, id: number, role: number) {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.id, id), eq(memberships.organizationId, organizationId)));
}

export async function setRoleOfUser(db: Database, organizationId: number, userId: number, role: number) {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

export async function deleteMembership(db: Database, organizationId: number, id: number) {
  await db
    .delete(memberships)
    .where(and(eq(memberships.id, id), eq(memberships.organizationId, organizationId)));
}

/** The subset of `userIds` that are members of the organization. */
export async function findMemberUserIds(db: Database, organizationId: number, userIds: number[]) {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), anyOf(memberships.userId, userIds)));
  return rows.map((row) => row.userId);
}

/** Organization roles of the given users (members only). */
export async function findRolesOfUsers(db: Database, organizationId: number, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, number>();
  const rows = await db
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), anyOf(memberships.userId, userIds)));
  return new Map(rows.map((row) => [row.userId, row.role]));
}

/** Members of the organization having one of `roles` (e.g. its administrators). */
export async function listUserIdsWithRoles(db: Database, organizationId: number, roles: number[]) {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), anyOf(memberships.role, roles)))
    .orderBy(asc(memberships.userId));
  return rows.map((row) => row.userId);
}

export async function countMembers(db: Database, organizationIds: number[]): Promise<Map<number, number>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db
    .select({ organizationId: memberships.organizationId, members: count() })
    .from(memberships)
    .where(anyOf(memberships.organizationId, organizationIds))
    .groupBy(memberships.organizationId);
  return new Map(rows.map((row) => [row.organizationId, Number(row.members)]));
}

/** Every membership of a user, organizations being deleted included (personal data export). */
export async function listAllMembershipsOfUser(db: Database, userId: number) {
  return db
    .select({
      organizationId: organizations.id,
      organizationTitle: organizations.title,
      subdomain: organizations.subdomain,
      role: memberships.role,
      joinedAt: memberships.createdAt,
      deletingAt: organizations.deletingAt,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.id));
}

/** The organizations the user owns. */
export async function listOwnedOrganizationIds(db: Database, userId: number): Promise<number[]> {
  const rows = await db
    .select({ organizationId: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 1)));
  return rows.map((row) => row.organizationId);
}
