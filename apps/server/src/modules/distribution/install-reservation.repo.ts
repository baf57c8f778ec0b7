import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { distributions, installReservations } from "./distribution.tables.ts";

export type ReservationRow = typeof installReservations.$inferSelect;

/** The client's reservation of this build through this link, made now or earlier. */
export async function insertOrFindReservation(
  db: Database,
  key: { distributionId: number; versionId: number; clientKey: string },
): Promise<{ row: ReservationRow; created: boolean }> {
  const [created] = await db.insert(installReservations).values(key).onConflictDoNothing().returning();
  if (created) return { row: created, created: true };
  const [existing] = await db
    .select()
    .from(installReservations)
    .where(
      and(
        eq(installReservations.distributionId, key.distributionId),
        eq(installReservations.versionId, key.versionId),
        eq(installReservations.clientKey, key.clientKey),
      ),
    )
    .limit(1);
  if (!existing) throw new Error("install reservation vanished");
  return { row: existing, created: false };
}

/**
 * Takes one of the link's install slots, or none when the limit is reached: one conditional
 * update, so parallel requests can never take more slots than the limit has.
 */
export async function takeInstallSlot(db: Database, distributionId: number): Promise<boolean> {
  const taken = await db
    .update(distributions)
    .set({ installsCount: sql`${distributions.installsCount} + 1` })
    .where(
      and(
        eq(distributions.id, distributionId),
        or(eq(distributions.installLimit, 0), lt(distributions.installsCount, distributions.installLimit)),
      ),
    )
    .returning({ id: distributions.id });
  return taken.length === 1;
}

export async function markReservationHoldsSlot(db: Database, id: number): Promise<void> {
  await db.update(installReservations).set({ holdsSlot: true }).where(eq(installReservations.id, id));
}

/** Marks the reservation counted for `kind`; false when an earlier request of the client counted it. */
export async function markReservationCounted(
  db: Database,
  id: number,
  kind: "install" | "download",
  now: Date,
): Promise<boolean> {
  const column =
    kind === "install" ? installReservations.installCountedAt : installReservations.downloadCountedAt;
  const marked = await db
    .update(installReservations)
    .set(kind === "install" ? { installCountedAt: now } : { downloadCountedAt: now })
    .where(and(eq(installReservations.id, id), isNull(column)))
    .returning({ id: installReservations.id });
  return marked.length === 1;
}

/** Gives back a reservation that delivered nothing, with its slot if it held one. */
export async function releaseReservation(db: Database, id: number): Promise<void> {
  const [removed] = await db
    .delete(installReservations)
    .where(
      and(
        eq(installReservations.id, id),
        isNull(installReservations.installCountedAt),
        isNull(installReservations.downloadCountedAt),
      ),
    )
    .returning();
  if (removed?.holdsSlot) {
    await db
      .update(distributions)
      .set({ installsCount: sql`greatest(0, ${distributions.installsCount} - 1)` })
      .where(eq(distributions.id, removed.distributionId));
  }
}

/**
 * Reservations past their window that hold no install slot. A slot-holding row stays: it is
 * what makes a device that comes back next week count once against the link's limit.
 */
export async function deleteReservationsBefore(db: Database, before: Date): Promise<number> {
  const removed = await db
    .delete(installReservations)
    .where(and(lt(installReservations.createdAt, before), eq(installReservations.holdsSlot, false)))
    .returning({ id: installReservations.id });
  return removed.length;
}
