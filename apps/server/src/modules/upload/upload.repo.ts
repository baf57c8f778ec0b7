import { and, count, desc, eq, inArray, lt, or } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { preloads, uploadTasks } from "./upload.tables.ts";

export type PreloadRow = typeof preloads.$inferSelect;
export type UploadTaskRow = typeof uploadTasks.$inferSelect;
export type NewPreload = typeof preloads.$inferInsert;

export async function insertPreload(db: Database, values: NewPreload): Promise<PreloadRow> {
  const [row] = await db.insert(preloads).values(values).returning();
  if (!row) throw new Error("preload insert returned nothing");
  return row;
}

/** Locks the preload so two confirms of one upload cannot both use it. */
export async function findPreloadForUpdate(db: Database, path: string): Promise<PreloadRow | null> {
  const [row] = await db.select().from(preloads).where(eq(preloads.path, path)).for("update").limit(1);
  return row ?? null;
}

export async function deletePreload(db: Database, id: number): Promise<void> {
  await db.delete(preloads).where(eq(preloads.id, id));
}

/** Expired preloads, deleted as they are returned, so each file is handed to one sweeper. */
export async function takeExpiredPreloads(db: Database, now: Date, limit: number): Promise<PreloadRow[]> {
  return db
    .delete(preloads)
    .where(
      inArray(
        preloads.id,
        db.select({ id: preloads.id }).from(preloads).where(lt(preloads.expiresAt, now)).limit(limit),
      ),
    )
    .returning();
}

export type NewUploadTask = typeof uploadTasks.$inferInsert;

export async function insertUploadTask(db: Database, values: NewUploadTask) {
  await db.insert(uploadTasks).values(values);
}

export async function findUploadTask(db: Database, taskId: string): Promise<UploadTaskRow | null> {
  const [row] = await db.select().from(uploadTasks).where(eq(uploadTasks.id, taskId)).limit(1);
  return row ?? null;
}

export async function updateUploadTask(
  db: Database,
  taskId: string,
  values: Partial<Pick<UploadTaskRow, "state" | "errorCode" | "detail">>,
) {
  await db
    .update(uploadTasks)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(uploadTasks.id, taskId));
}

/** Which of `keys` a preload still points at. */
export async function findKeysReferencedByPreloads(db: Database, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select({ file: preloads.fileKey, icon: preloads.iconKey })
    .from(preloads)
    .where(or(anyOf(preloads.fileKey, keys), anyOf(preloads.iconKey, keys)));
  return rows.flatMap((row) => [row.file, row.icon]).filter((key): key is string => Boolean(key));
}

/** How many uploads one person keeps waiting for confirmation in an organization. */
export async function countPendingPreloads(db: Database, organizationId: number, userId: number) {
  const [row] = await db
    .select({ value: count() })
    .from(preloads)
    .where(and(eq(preloads.organizationId, organizationId), eq(preloads.userId, userId)));
  return row?.value ?? 0;
}

export async function findPreloadOfUser(
  db: Database,
  path: string,
  userId: number,
): Promise<PreloadRow | null> {
  const [row] = await db
    .select()
    .from(preloads)
    .where(and(eq(preloads.path, path), eq(preloads.userId, userId)))
    .for("update")
    .limit(1);
  return row ?? null;
}

export async function findLatestUploadTask(
  db: Database,
  organizationId: number,
  versionId: number,
  kind: string,
): Promise<UploadTaskRow | null> {
  const [row] = await db
    .select()
    .from(uploadTasks)
    .where(
      and(
        eq(uploadTasks.organizationId, organizationId),
        eq(uploadTasks.versionId, versionId),
        eq(uploadTasks.kind, kind),
      ),
    )
    .orderBy(desc(uploadTasks.createdAt))
    .limit(1);
  return row ?? null;
}

export async function findUploadTasks(db: Database, taskIds: string[]): Promise<UploadTaskRow[]> {
  if (taskIds.length === 0) return [];
  return db.select().from(uploadTasks).where(anyOf(uploadTasks.id, taskIds));
}
