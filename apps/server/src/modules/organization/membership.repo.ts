import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { memberships, organizations } from "../../platform/db/schema/index.ts";

const membershipView = {
  membershipId: memberships.id,
  organizationId: memberships.organizationId,
  userId: memberships.userId,
  role: memberships.role,
  catalogVersion: organizations.catalogVersion,
};

/** The tenant boundary: a user's memberships in organizations that are not being deleted. */
export function liveMembershipCondition(userId: number, organizationId?: number) {
  return and(
    eq(memberships.userId, userId),
    organizationId === undefined ? undefined : eq(memberships.organizationId, organizationId),
    isNull(organizations.deletingAt),
  );
}

function selectLiveMemberships(db: Database, userId: number, organizationId?: number) {
  return db
    .select(membershipView)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(liveMembershipCondition(userId, organizationId));
}

/** A membership in an organization that is not being deleted. */
export async function findLiveMembership(db: Database, userId: number, organizationId: number) {
  const [row] = await selectLiveMemberships(db, userId, organizationId).limit(1);
  return row ?? null;
}

export async function listLiveMemberships(db: Database, userId: number) {
  return selectLiveMemberships(db, userId).orderBy(memberships.organizationId);
}
