import { and, asc, count, eq, gt, lt } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { organizationInvitations, organizations } from "./organization.tables.ts";

export type InvitationRow = typeof organizationInvitations.$inferSelect;
export type NewInvitation = Omit<typeof organizationInvitations.$inferInsert, "id" | "createdAt">;

export async function insertInvitation(db: Database, row: NewInvitation): Promise<InvitationRow> {
  const [created] = await db.insert(organizationInvitations).values(row).returning();
  if (!created) throw new Error("invitation insert returned no row");
  return created;
}

/** The live invitation of a person to an organization. */
export async function findLiveInvitation(db: Database, organizationId: number, userId: number, now: Date) {
  const [row] = await db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        eq(organizationInvitations.userId, userId),
        gt(organizationInvitations.expiresAt, now),
      ),
    );
  return row ?? null;
}

/** An invitation by id, only among the given organizations (the caller's). */
export async function findInvitationAmong(db: Database, organizationIds: number[], id: number) {
  if (organizationIds.length === 0) return null;
  const [row] = await db
    .select()
    .from(organizationInvitations)
    .where(
      and(eq(organizationInvitations.id, id), anyOf(organizationInvitations.organizationId, organizationIds)),
    );
  return row ?? null;
}

/** An invitation by id, only if it is addressed to this person. */
export async function findInvitationOfUser(db: Database, userId: number, id: number) {
  const [row] = await db
    .select()
    .from(organizationInvitations)
    .where(and(eq(organizationInvitations.id, id), eq(organizationInvitations.userId, userId)));
  return row ?? null;
}

/** Removes the invitation and returns it, so that only one request can accept it. */
export async function takeInvitation(db: Database, organizationId: number, userId: number) {
  const [row] = await db
    .delete(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        eq(organizationInvitations.userId, userId),
      ),
    )
    .returning();
  return row ?? null;
}

export async function deleteInvitation(db: Database, organizationId: number, id: number): Promise<boolean> {
  const deleted = await db
    .delete(organizationInvitations)
    .where(
      and(eq(organizationInvitations.id, id), eq(organizationInvitations.organizationId, organizationId)),
    )
    .returning({ id: organizationInvitations.id });
  return deleted.length === 1;
}

/** An organization's live invitations, newest first (a few dozen at most: they hold seats). */
export function listLiveInvitationsOfOrganization(db: Database, organizationId: number, now: Date) {
  return db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        gt(organizationInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(organizationInvitations.email))
    .limit(1000);
}

/** A person's live invitations with the organizations' names (organizations being deleted left out). */
export function listLiveInvitationsOfUser(db: Database, userId: number, now: Date) {
  return db
    .select({
      invitation: organizationInvitations,
      organizationTitle: organizations.title,
      subdomain: organizations.subdomain,
      deletingAt: organizations.deletingAt,
    })
    .from(organizationInvitations)
    .innerJoin(organizations, eq(organizations.id, organizationInvitations.organizationId))
    .where(and(eq(organizationInvitations.userId, userId), gt(organizationInvitations.expiresAt, now)))
    .orderBy(asc(organizationInvitations.createdAt));
}

/** Live invitations per organization: each holds a seat of the plan. */
export async function countLiveInvitations(db: Database, organizationIds: number[], now: Date) {
  if (organizationIds.length === 0) return new Map<number, number>();
  const rows = await db
    .select({ organizationId: organizationInvitations.organizationId, value: count() })
    .from(organizationInvitations)
    .where(
      and(
        anyOf(organizationInvitations.organizationId, organizationIds),
        gt(organizationInvitations.expiresAt, now),
      ),
    )
    .groupBy(organizationInvitations.organizationId);
  return new Map(rows.map((row) => [row.organizationId, Number(row.value)]));
}

export async function deleteExpiredInvitations(db: Database, now: Date): Promise<void> {
  await db.delete(organizationInvitations).where(lt(organizationInvitations.expiresAt, now));
}
