import { and, asc, desc, eq, gte, lt } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { dataExports } from "./gdpr.tables.ts";

export type DataExportRow = typeof dataExports.$inferSelect;

export async function findPendingExport(db: Database, userId: number) {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), eq(dataExports.status, "pending")))
    .orderBy(desc(dataExports.id))
    .limit(1);
  return row ?? null;
}

/** Creation times of the user's exports since `since`, oldest first (for the daily limit). */
export async function listExportTimesSince(db: Database, userId: number, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ createdAt: dataExports.createdAt })
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), gte(dataExports.createdAt, since)))
    .orderBy(asc(dataExports.createdAt));
  return rows.map((row) => row.createdAt);
}

export async function insertExport(db: Database, userId: number, now: Date): Promise<DataExportRow> {
  const [row] = await db.insert(dataExports).values({ userId, createdAt: now }).returning();
  if (!row) throw new Error("export insert returned no row");
  return row;
}

export async function listUserExports(db: Database, userId: number): Promise<DataExportRow[]> {
  return db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id));
}

export async function findExport(db: Database, exportId: number) {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId)).limit(1);
  return row ?? null;
}

/** Marks a still-pending export ready; false when it is gone or already settled. */
export async function markExportReady(
  db: Database,
  exportId: number,
  result: { storageKey: string; size: number; now: Date },
): Promise<boolean> {
  const updated = await db
    .update(dataExports)
    .set({ status: "ready", storageKey: result.storageKey, size: result.size, completedAt: result.now })
    .where(and(eq(dataExports.id, exportId), eq(dataExports.status, "pending")))
    .returning({ id: dataExports.id });
  return updated.length === 1;
}

export async function markExportFailed(db: Database, exportId: number, now: Date): Promise<void> {
  await db
    .update(dataExports)
    .set({ status: "failed", completedAt: now })
    .where(and(eq(dataExports.id, exportId), eq(dataExports.status, "pending")));
}

/** Exports still pending since before `cutoff`: their job is gone, so they would block new requests. */
export async function failStalePendingExports(db: Database, cutoff: Date, now: Date): Promise<void> {
  await db
    .update(dataExports)
    .set({ status: "failed", completedAt: now })
    .where(and(eq(dataExports.status, "pending"), lt(dataExports.createdAt, cutoff)));
}

export async function listExportsCreatedBefore(db: Database, cutoff: Date, limit: number) {
  return db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(lt(dataExports.createdAt, cutoff))
    .orderBy(asc(dataExports.id))
    .limit(limit);
}

export async function deleteExport(db: Database, exportId: number): Promise<void> {
  await db.delete(dataExports).where(eq(dataExports.id, exportId));
}

export async function listExportHistory(db: Database, userId: number) {
  return db
    .select({
      id: dataExports.id,
      status: dataExports.status,
      createdAt: dataExports.createdAt,
      completedAt: dataExports.completedAt,
      size: dataExports.size,
    })
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(asc(dataExports.id));
}
