import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { pushHandledEvents, pushServerKeys, pushSubscriptions } from "./push.tables.ts";

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** The key pair's row, or null before the first process made one. */
export async function findServerKeys(db: Database) {
  const [row] = await db.select().from(pushServerKeys).where(eq(pushServerKeys.id, 1)).limit(1);
  return row ?? null;
}

/** Stores a key pair unless another process stored one first; the stored one is what counts. */
export async function insertServerKeysOnce(
  db: Database,
  keys: { publicKey: string; sealedPrivateKey: string },
) {
  await db
    .insert(pushServerKeys)
    .values({ id: 1, ...keys })
    .onConflictDoNothing({ target: pushServerKeys.id });
}

/**
 * Saves a subscription for the user. The same endpoint subscribed again (a browser renewing its
 * keys, or another person signing in on the same browser) is taken over by this user.
 */
export async function upsertSubscription(
  db: Database,
  row: Pick<PushSubscriptionRow, "userId" | "endpointHash" | "sealed" | "service" | "language">,
): Promise<PushSubscriptionRow> {
  const [saved] = await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpointHash,
      set: {
        userId: row.userId,
        sealed: row.sealed,
        service: row.service,
        language: row.language,
        failures: 0,
      },
    })
    .returning();
  if (!saved) throw new Error("push subscription upsert returned nothing");
  return saved;
}

export function listSubscriptionsOfUser(db: Database, userId: number) {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
}

export async function listSubscriptionsOfUsers(db: Database, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select()
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, userIds))
    .orderBy(asc(pushSubscriptions.id));
}

export async function findSubscription(db: Database, id: number) {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1);
  return row ?? null;
}

/** Deletes the user's subscription with this endpoint; answers whether there was one. */
export async function deleteSubscriptionOfUser(db: Database, userId: number, endpointHash: string) {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpointHash, endpointHash)))
    .returning({ id: pushSubscriptions.id });
  return deleted.length > 0;
}

export async function deleteSubscriptions(db: Database, ids: number[]) {
  if (ids.length === 0) return;
  await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids));
}

export async function markSent(db: Database, id: number, at: Date) {
  await db.update(pushSubscriptions).set({ lastSentAt: at, failures: 0 }).where(eq(pushSubscriptions.id, id));
}

/** Counts a failed send; answers the failures in a row. */
export async function countFailure(db: Database, id: number): Promise<number> {
  const [row] = await db
    .update(pushSubscriptions)
    .set({ failures: sql`least(${pushSubscriptions.failures} + 1, 1000)` })
    .where(eq(pushSubscriptions.id, id))
    .returning({ failures: pushSubscriptions.failures });
  return row?.failures ?? 0;
}

/** Claims an event for pushing; false when it was pushed before (the event job ran again). */
export async function claimEvent(db: Database, eventId: string): Promise<boolean> {
  const claimed = await db
    .insert(pushHandledEvents)
    .values({ eventId })
    .onConflictDoNothing({ target: pushHandledEvents.eventId })
    .returning({ eventId: pushHandledEvents.eventId });
  return claimed.length > 0;
}

export async function forgetEventsBefore(db: Database, before: Date) {
  await db.delete(pushHandledEvents).where(lt(pushHandledEvents.handledAt, before));
}
