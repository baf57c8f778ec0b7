import { and, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { webhookDeliveries } from "./integrations.tables.ts";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;

/** Inserts the deliveries not made yet (by dedupe key); returns those inserted now. */
export async function insertDeliveries(db: Database, values: NewDelivery[]): Promise<DeliveryRow[]> {
  if (values.length === 0) return [];
  return db
    .insert(webhookDeliveries)
    .values(values)
    .onConflictDoNothing({ target: webhookDeliveries.dedupeKey })
    .returning();
}

export async function findDelivery(db: Database, id: number): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row ?? null;
}

/**
 * Takes a pending delivery for one attempt, unless another process holds it. The lock outlives
 * the attempt's deadline, so it only lapses when the process that took it died.
 */
export async function claimDelivery(
  db: Database,
  id: number,
  lockSeconds: number,
): Promise<DeliveryRow | null> {
  const now = new Date();
  const [row] = await db
    .update(webhookDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + lockSeconds * 1000), updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, "pending"),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .returning();
  return row ?? null;
}

export async function recordAttempt(
  db: Database,
  id: number,
  values: Pick<
    DeliveryRow,
    "status" | "nextAttemptAt" | "responseStatus" | "responseBody" | "durationMs" | "error"
  >,
): Promise<DeliveryRow | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      ...values,
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lockedUntil: null,
      updatedAt: new Date(),
    })
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row ?? null;
}

/** Pending deliveries whose attempt is overdue and not held by a live process (a worker died). */
export async function listStrandedDeliveries(db: Database, overdueBefore: Date, limit: number) {
  const now = new Date();
  return db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        lt(webhookDeliveries.nextAttemptAt, overdueBefore),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(limit);
}

/** A webhook's log, or an app chat channel's, newest first. */
export async function listDeliveries(
  db: Database,
  owner: { webhookId: number } | { chatOfApplicationId: number },
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: DeliveryRow[] }> {
  const scope =
    "webhookId" in owner
      ? eq(webhookDeliveries.webhookId, owner.webhookId)
      : and(
          eq(webhookDeliveries.applicationId, owner.chatOfApplicationId),
          eq(webhookDeliveries.target, "app-chat"),
        );
  const [total] = await db.select({ value: count() }).from(webhookDeliveries).where(scope);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(scope)
    .orderBy(desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: total?.value ?? 0, rows };
}

export async function deleteDeliveriesBefore(db: Database, before: Date): Promise<void> {
  await db.delete(webhookDeliveries).where(lt(webhookDeliveries.createdAt, before));
}
