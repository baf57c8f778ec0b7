import { and, asc, count, eq, isNull, lt, or, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { memberships, organizations } from "./organization.tables.ts";

export type OrganizationRow = typeof organizations.$inferSelect;

export async function insertOrganization(
  db: Database,
  row: { title: string; subdomain: string; planId: number; sdkKey: string },
): Promise<OrganizationRow> {
  const [created] = await db.insert(organizations).values(row).returning();
  if (!created) throw new Error("organization insert returned no row");
  return created;
}

/** A page of the organizations a user belongs to (not those being deleted), with the user's role. */
export async function listOrganizationsOfUser(
  db: Database,
  userId: number,
  page: { limit: number; offset: number },
) {
  const where = and(eq(memberships.userId, userId), isNull(organizations.deletingAt));
  const [total] = await db
    .select({ value: count() })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(where);
  const rows = await db
    .select({ organization: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(where)
    .orderBy(asc(organizations.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}

export async function findOrganizationById(db: Database, organizationId: number) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId)).limit(1);
  return row ?? null;
}

export async function findOrganizationsByIds(db: Database, organizationIds: number[]) {
  if (organizationIds.length === 0) return [];
  return db.select().from(organizations).where(anyOf(organizations.id, organizationIds));
}

/** Serializes changes that count or limit an organization (SELECT ... FOR UPDATE); null if gone. */
export async function lockOrganization(db: Database, organizationId: number) {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), isNull(organizations.deletingAt)))
    .for("update");
  return row ?? null;
}

export async function updateOrganization(
  db: Database,
  organizationId: number,
  values: Partial<{ title: string; subdomain: string; logoKey: string | null; sdkKey: string }>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.update(organizations).set(values).where(eq(organizations.id, organizationId));
}

/** Counters move in the transaction that adds or removes what they count. */
export async function addUsage(db: Database, organizationId: number, delta: UsageDelta): Promise<void> {
  await db
    .update(organizations)
    .set({
      spaceUsedBytes: sql`greatest(0, ${organizations.spaceUsedBytes} + ${delta.bytes ?? 0})`,
      buildsCount: sql`greatest(0, ${organizations.buildsCount} + ${delta.builds ?? 0})`,
      projectsCount: sql`greatest(0, ${organizations.projectsCount} + ${delta.projects ?? 0})`,
      pendingUploadBytes: sql`greatest(0, ${organizations.pendingUploadBytes} + ${delta.pendingBytes ?? 0})`,
      pendingUploads: sql`greatest(0, ${organizations.pendingUploads} + ${delta.pendingUploads ?? 0})`,
    })
    .where(eq(organizations.id, organizationId));
}

export interface UsageDelta {
  bytes?: number;
  builds?: number;
  projects?: number;
  /** Uploads waiting for confirmation (preloads): their bytes and their number. */
  pendingBytes?: number;
  pendingUploads?: number;
}

/** Takes the once-a-day limit notice slot; false when one was sent in the last 24 hours. */
export async function claimLimitNotice(db: Database, organizationId: number, now: Date): Promise<boolean> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const claimed = await db
    .update(organizations)
    .set({ limitNotifiedAt: now })
    .where(
      and(
        eq(organizations.id, organizationId),
        or(isNull(organizations.limitNotifiedAt), lt(organizations.limitNotifiedAt, dayAgo)),
      ),
    )
    .returning({ id: organizations.id });
  return claimed.length > 0;
}

export async function markOrganizationsDeleting(db: Database, organizationIds: number[], now: Date) {
  if (organizationIds.length === 0) return;
  await db.update(organizations).set({ deletingAt: now }).where(anyOf(organizations.id, organizationIds));
}

/** Memberships, teams, projects, apps and everything under them go with it (foreign keys cascade). */
export async function deleteOrganizationRow(db: Database, organizationId: number): Promise<void> {
  await db.delete(organizations).where(eq(organizations.id, organizationId));
}

export async function findOrganizationBySubdomain(db: Database, subdomain: string) {
  const [row] = await db
    .select({ id: organizations.id, title: organizations.title, subdomain: organizations.subdomain })
    .from(organizations)
    .where(eq(organizations.subdomain, subdomain.trim().toLowerCase()));
  return row ?? null;
}
