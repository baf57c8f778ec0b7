import { and, asc, eq, gt, isNotNull, lt, notExists, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { ssoDomains, ssoIdentities, ssoLinkRequests, ssoSecondFactorTickets } from "./sso.tables.ts";

export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;

export async function findIdentity(db: Database, organizationId: number, userId: number) {
  const [row] = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.organizationId, organizationId), eq(ssoIdentities.userId, userId)));
  return row ?? null;
}

/** Records who the provider may sign in; an account it created stays "created" when linked again. */
export async function insertIdentity(
  db: Database,
  row: { organizationId: number; userId: number; origin: "created" | "linked" },
): Promise<void> {
  await db.insert(ssoIdentities).values(row).onConflictDoNothing();
}

export async function deleteIdentity(db: Database, organizationId: number, userId: number): Promise<boolean> {
  const deleted = await db
    .delete(ssoIdentities)
    .where(and(eq(ssoIdentities.organizationId, organizationId), eq(ssoIdentities.userId, userId)))
    .returning({ userId: ssoIdentities.userId });
  return deleted.length === 1;
}

/** The person's identities, oldest first. */
export function listIdentitiesOfUser(db: Database, userId: number) {
  return db
    .select()
    .from(ssoIdentities)
    .where(eq(ssoIdentities.userId, userId))
    .orderBy(asc(ssoIdentities.createdAt));
}

/**
 * The person proved the mailbox: accounts a provider created stay its own only where the
 * organization has proven the address's domain; elsewhere the provider merely named an address
 * it did not own, and the account now belongs to whoever reads that mail.
 */
export async function forgetUnprovenCreations(db: Database, userId: number, domain: string): Promise<void> {
  await db.delete(ssoIdentities).where(
    and(
      eq(ssoIdentities.userId, userId),
      eq(ssoIdentities.origin, "created"),
      notExists(
        db
          .select({ one: sql`1` })
          .from(ssoDomains)
          .where(
            and(
              eq(ssoDomains.organizationId, ssoIdentities.organizationId),
              eq(ssoDomains.domain, domain),
              isNotNull(ssoDomains.verifiedAt),
            ),
          ),
      ),
    ),
  );
}

export async function insertLinkRequest(db: Database, row: typeof ssoLinkRequests.$inferInsert) {
  await db.insert(ssoLinkRequests).values(row);
}

export async function findLinkRequest(db: Database, codeHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(ssoLinkRequests)
    .where(and(eq(ssoLinkRequests.codeHash, codeHash), gt(ssoLinkRequests.expiresAt, now)));
  return row ?? null;
}

/** Takes (deletes) the request, so a link works once. */
export async function takeLinkRequest(db: Database, codeHash: string, now: Date) {
  const [row] = await db
    .delete(ssoLinkRequests)
    .where(and(eq(ssoLinkRequests.codeHash, codeHash), gt(ssoLinkRequests.expiresAt, now)))
    .returning();
  return row ?? null;
}

export async function insertSecondFactorTicket(
  db: Database,
  row: typeof ssoSecondFactorTickets.$inferInsert,
) {
  await db.insert(ssoSecondFactorTickets).values(row);
}

/** Counts an attempt on the live ticket and returns it; null when there is no such ticket left. */
export async function countTicketAttempt(db: Database, ticketHash: string, now: Date) {
  const [row] = await db
    .update(ssoSecondFactorTickets)
    .set({ attempts: sql`${ssoSecondFactorTickets.attempts} + 1` })
    .where(and(eq(ssoSecondFactorTickets.ticketHash, ticketHash), gt(ssoSecondFactorTickets.expiresAt, now)))
    .returning();
  return row ?? null;
}

export async function deleteSecondFactorTicket(db: Database, ticketHash: string): Promise<boolean> {
  const deleted = await db
    .delete(ssoSecondFactorTickets)
    .where(eq(ssoSecondFactorTickets.ticketHash, ticketHash))
    .returning({ userId: ssoSecondFactorTickets.userId });
  return deleted.length === 1;
}

export async function deleteExpiredTickets(db: Database, now: Date): Promise<void> {
  await db.delete(ssoSecondFactorTickets).where(lt(ssoSecondFactorTickets.expiresAt, now));
  await db.delete(ssoLinkRequests).where(lt(ssoLinkRequests.expiresAt, now));
}
