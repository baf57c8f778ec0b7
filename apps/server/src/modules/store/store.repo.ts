import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { storeDeveloperAccounts, storeUploads } from "./store.tables.ts";

export type DeveloperAccountRow = typeof storeDeveloperAccounts.$inferSelect;
export type NewDeveloperAccount = typeof storeDeveloperAccounts.$inferInsert;
export type StoreUploadRow = typeof storeUploads.$inferSelect;
export type NewStoreUpload = typeof storeUploads.$inferInsert;

export async function insertDeveloperAccount(db: Database, values: NewDeveloperAccount) {
  const [row] = await db.insert(storeDeveloperAccounts).values(values).returning();
  return row as DeveloperAccountRow;
}

export function listDeveloperAccounts(db: Database, organizationId: number, store?: string) {
  return db
    .select()
    .from(storeDeveloperAccounts)
    .where(
      and(
        eq(storeDeveloperAccounts.organizationId, organizationId),
        store ? eq(storeDeveloperAccounts.store, store) : undefined,
      ),
    )
    .orderBy(storeDeveloperAccounts.id);
}

export async function findDeveloperAccount(db: Database, organizationId: number, id: number) {
  const [row] = await db
    .select()
    .from(storeDeveloperAccounts)
    .where(and(eq(storeDeveloperAccounts.organizationId, organizationId), eq(storeDeveloperAccounts.id, id)));
  return row ?? null;
}

/** The account by id alone: the caller learns its organization and checks the membership there. */
export async function findDeveloperAccountById(db: Database, id: number) {
  const [row] = await db.select().from(storeDeveloperAccounts).where(eq(storeDeveloperAccounts.id, id));
  return row ?? null;
}

export async function deleteDeveloperAccount(db: Database, organizationId: number, id: number) {
  const rows = await db
    .delete(storeDeveloperAccounts)
    .where(and(eq(storeDeveloperAccounts.organizationId, organizationId), eq(storeDeveloperAccounts.id, id)))
    .returning({ id: storeDeveloperAccounts.id });
  return rows.length > 0;
}

export async function countDeveloperAccounts(db: Database, organizationId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(storeDeveloperAccounts)
    .where(eq(storeDeveloperAccounts.organizationId, organizationId));
  return row?.count ?? 0;
}

export async function insertStoreUpload(db: Database, values: NewStoreUpload) {
  const [row] = await db.insert(storeUploads).values(values).returning();
  return row as StoreUploadRow;
}

export async function findStoreUpload(db: Database, id: string) {
  const [row] = await db.select().from(storeUploads).where(eq(storeUploads.id, id));
  return row ?? null;
}

export async function updateStoreUpload(
  db: Database,
  organizationId: number,
  id: string,
  values: Partial<Pick<StoreUploadRow, "state" | "progress" | "message" | "resume" | "attempts">>,
) {
  await db
    .update(storeUploads)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(storeUploads.organizationId, organizationId), eq(storeUploads.id, id)));
}

export function listStoreUploads(db: Database, organizationId: number, applicationId: number, limit = 50) {
  return db
    .select()
    .from(storeUploads)
    .where(
      and(eq(storeUploads.organizationId, organizationId), eq(storeUploads.applicationId, applicationId)),
    )
    .orderBy(desc(storeUploads.createdAt))
    .limit(limit);
}
