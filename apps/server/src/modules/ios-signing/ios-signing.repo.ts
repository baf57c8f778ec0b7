import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { iosResigns } from "./ios-signing.tables.ts";

export type IosResignRow = typeof iosResigns.$inferSelect;

export async function insertResign(
  db: Database,
  values: typeof iosResigns.$inferInsert,
): Promise<IosResignRow> {
  const [row] = await db.insert(iosResigns).values(values).returning();
  if (!row) throw new Error("ios_resigns insert returned nothing");
  return row;
}

export async function listResignsOfVersion(db: Database, organizationId: number, versionId: number) {
  return db
    .select()
    .from(iosResigns)
    .where(and(eq(iosResigns.organizationId, organizationId), eq(iosResigns.versionId, versionId)))
    .orderBy(desc(iosResigns.id));
}

/** The worker's lookup: the task id is the job's only argument, the organization comes with the row. */
export async function findResignByTask(db: Database, taskId: string): Promise<IosResignRow | null> {
  const [row] = await db.select().from(iosResigns).where(eq(iosResigns.taskId, taskId)).limit(1);
  return row ?? null;
}

export async function finishResign(
  db: Database,
  organizationId: number,
  id: number,
  values: { resultVersionId?: number | null },
): Promise<void> {
  await db
    .update(iosResigns)
    .set({ ...values, sealedMaterial: null, updatedAt: new Date() })
    .where(and(eq(iosResigns.organizationId, organizationId), eq(iosResigns.id, id)));
}
