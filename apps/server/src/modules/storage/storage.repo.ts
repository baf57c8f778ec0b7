import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { storageLocations, storageMoves } from "./storage.tables.ts";

export type LocationRow = typeof storageLocations.$inferSelect;
export type MoveRow = typeof storageMoves.$inferSelect;
export type LocationKind = "s3" | "gcs";

export async function findLocation(db: Database, id: number): Promise<LocationRow | null> {
  const [row] = await db.select().from(storageLocations).where(eq(storageLocations.id, id));
  return row ?? null;
}

export async function findActiveLocation(db: Database, organizationId: number): Promise<LocationRow | null> {
  const [row] = await db
    .select()
    .from(storageLocations)
    .where(and(eq(storageLocations.organizationId, organizationId), eq(storageLocations.active, true)));
  return row ?? null;
}

/** The newest settings of one kind (what its form shows), active or not. */
export async function findLatestLocation(
  db: Database,
  organizationId: number,
  kind: LocationKind,
): Promise<LocationRow | null> {
  const [row] = await db
    .select()
    .from(storageLocations)
    .where(and(eq(storageLocations.organizationId, organizationId), eq(storageLocations.kind, kind)))
    .orderBy(desc(storageLocations.id))
    .limit(1);
  return row ?? null;
}

/** Makes new settings the active location (the previous one stays, for the files it holds). */
export async function insertActiveLocation(
  tx: Database,
  row: Pick<LocationRow, "organizationId" | "kind" | "settings" | "sealedSecret" | "createdBy">,
): Promise<LocationRow> {
  await deactivateLocations(tx, row.organizationId);
  const [created] = await tx
    .insert(storageLocations)
    .values({ ...row, active: true })
    .returning();
  return created as LocationRow;
}

export async function deactivateLocations(tx: Database, organizationId: number): Promise<void> {
  await tx
    .update(storageLocations)
    .set({ active: false })
    .where(and(eq(storageLocations.organizationId, organizationId), eq(storageLocations.active, true)));
}

export async function listLocationIds(db: Database, organizationId?: number): Promise<number[]> {
  const rows = await db
    .select({ id: storageLocations.id })
    .from(storageLocations)
    .where(organizationId === undefined ? undefined : eq(storageLocations.organizationId, organizationId));
  return rows.map((row) => row.id);
}

/** True for the one caller allowed to tell the owner about a refused write this hour. */
export async function claimRefusalNotice(db: Database, locationId: number, now: Date): Promise<boolean> {
  const hourAgo = new Date(now.getTime() - 3600_000);
  const claimed = await db
    .update(storageLocations)
    .set({ refusalNotifiedAt: now })
    .where(
      and(
        eq(storageLocations.id, locationId),
        or(isNull(storageLocations.refusalNotifiedAt), lt(storageLocations.refusalNotifiedAt, hourAgo)),
      ),
    )
    .returning({ id: storageLocations.id });
  return claimed.length > 0;
}

export async function insertMove(
  tx: Database,
  row: Pick<MoveRow, "organizationId" | "targetLocationId" | "startedBy">,
): Promise<MoveRow | null> {
  const [created] = await tx.insert(storageMoves).values(row).onConflictDoNothing().returning();
  return created ?? null;
}

export async function findLatestMove(db: Database, organizationId: number): Promise<MoveRow | null> {
  const [row] = await db
    .select()
    .from(storageMoves)
    .where(eq(storageMoves.organizationId, organizationId))
    .orderBy(desc(storageMoves.id))
    .limit(1);
  return row ?? null;
}

export async function findMove(db: Database, id: number): Promise<MoveRow | null> {
  const [row] = await db.select().from(storageMoves).where(eq(storageMoves.id, id));
  return row ?? null;
}

export async function updateMove(
  db: Database,
  id: number,
  values: Partial<Pick<MoveRow, "state" | "totalFiles" | "totalBytes" | "error" | "finishedAt">>,
): Promise<void> {
  await db.update(storageMoves).set(values).where(eq(storageMoves.id, id));
}

export async function addMoveProgress(db: Database, id: number, bytes: number): Promise<void> {
  await db
    .update(storageMoves)
    .set({
      movedFiles: sql`${storageMoves.movedFiles} + 1`,
      movedBytes: sql`${storageMoves.movedBytes} + ${bytes}`,
    })
    .where(eq(storageMoves.id, id));
}
