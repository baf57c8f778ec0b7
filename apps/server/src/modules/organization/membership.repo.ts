import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { memberships, organizations } from "../../platform/db/schema/index.ts";

/** A membership in an organization that is not being deleted. */
export async function findLiveMembership(db: Database, userId: number, organizationId: number) {
  const [row] = await db
    .select({
      membershipId: memberships.id,
      organizationId: memberships.organizationId,
      userId: memberships.userId,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.organizationId, organizationId),
        isNull(organizations.deletingAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function listLiveMemberships(db: Database, userId: number) {
  return db
    .select({
      membershipId: memberships.id,
      organizationId: memberships.organizationId,
      userId: memberships.userId,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), isNull(organizations.deletingAt)))
    .orderBy(memberships.organizationId);
}
