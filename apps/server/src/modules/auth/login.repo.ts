import { eq } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { memberships, organizations } from "../../platform/db/schema/index.ts";

/** The user's roles across organizations still in service (read-only; memberships belong to organizations). */
export async function listMembershipRoles(db: Database, userId: number): Promise<number[]> {
  const rows = await db
    .select({ role: memberships.role, deletingAt: organizations.deletingAt })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId));
  return rows.filter((row) => row.deletingAt === null).map((row) => row.role);
}
