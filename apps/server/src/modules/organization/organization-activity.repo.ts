import { and, count, desc, eq, ilike, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { userDirectory } from "../users/users.views.ts";
import {
  type LimitOverrides,
  memberships,
  organizationActivity,
  organizations,
} from "./organization.tables.ts";

export type ActivityRow = typeof organizationActivity.$inferSelect;

export async function insertActivity(db: Database, row: typeof organizationActivity.$inferInsert) {
  await db.insert(organizationActivity).values(row);
}

export async function listActivity(
  db: Database,
  organizationId: number,
  page: { limit: number; offset: number },
) {
  const where = eq(organizationActivity.organizationId, organizationId);
  const [total] = await db.select({ value: count() }).from(organizationActivity).where(where);
  const rows = await db
    .select({ activity: organizationActivity, actorEmail: userDirectory.email })
    .from(organizationActivity)
    .leftJoin(userDirectory, eq(userDirectory.userId, organizationActivity.actorUserId))
    .where(where)
    .orderBy(desc(organizationActivity.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}

export async function setPlanOfOrganization(db: Database, organizationId: number, planId: number) {
  await db.update(organizations).set({ planId }).where(eq(organizations.id, organizationId));
}

export async function setLimitOverrides(db: Database, organizationId: number, overrides: LimitOverrides) {
  await db
    .update(organizations)
    .set({ limitOverrides: overrides })
    .where(eq(organizations.id, organizationId));
}

/**
 * Organizations of the whole instance for its administrators, newest first, with the owner's
 * address; `search` matches the title, the subdomain or the owner's address.
 */
export async function listOrganizationsOfInstance(
  db: Database,
  filter: { search?: string; id?: number },
  page: { limit: number; offset: number },
) {
  const search = filter.search;
  const owners = db
    .select({ organizationId: memberships.organizationId, userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.role, 1))
    .as("owners");
  const pattern = search ? `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : undefined;
  const where = and(
    isNull(organizations.deletingAt),
    filter.id === undefined ? undefined : eq(organizations.id, filter.id),
    pattern
      ? or(
          ilike(organizations.title, pattern),
          ilike(organizations.subdomain, pattern),
          ilike(userDirectory.email, pattern),
        )
      : undefined,
  );
  const base = () =>
    db
      .select({
        organization: organizations,
        ownerId: owners.userId,
        ownerEmail: userDirectory.email,
        ownerName: sql<string>`trim(${userDirectory.firstName} || ' ' || ${userDirectory.lastName})`,
      })
      .from(organizations)
      .leftJoin(owners, eq(owners.organizationId, organizations.id))
      .leftJoin(userDirectory, eq(userDirectory.userId, owners.userId))
      .where(where);
  const [total] = await db
    .select({ value: count() })
    .from(organizations)
    .leftJoin(owners, eq(owners.organizationId, organizations.id))
    .leftJoin(userDirectory, eq(userDirectory.userId, owners.userId))
    .where(where);
  const rows = await base().orderBy(desc(organizations.id)).limit(page.limit).offset(page.offset);
  return { count: total?.value ?? 0, rows };
}
