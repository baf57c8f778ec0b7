import { and, asc, count, eq, gt, lt, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { tusUploadParts, tusUploads } from "./upload.tables.ts";

export type TusUploadRow = typeof tusUploads.$inferSelect;
export type TusUploadPartRow = typeof tusUploadParts.$inferSelect;

export async function insertTusUpload(
  db: Database,
  values: typeof tusUploads.$inferInsert,
): Promise<TusUploadRow> {
  const [row] = await db.insert(tusUploads).values(values).returning();
  if (!row) throw new Error("tus upload insert returned nothing");
  return row;
}

/** The upload if it is this person's: the id alone finds nothing of anyone else's. */
export async function findTusUploadOfUser(
  db: Database,
  id: string,
  userId: number,
): Promise<TusUploadRow | null> {
  const [row] = await db
    .select()
    .from(tusUploads)
    .where(and(eq(tusUploads.id, id), eq(tusUploads.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Unfinished and finished uploads one person keeps in an organization, not yet expired. */
export async function countLiveTusUploads(
  db: Database,
  organizationId: number,
  userId: number,
  now: Date,
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(tusUploads)
    .where(
      and(
        eq(tusUploads.organizationId, organizationId),
        eq(tusUploads.userId, userId),
        gt(tusUploads.expiresAt, now),
      ),
    );
  return row?.value ?? 0;
}

/**
 * Records a stored part and moves the offset past it, only if the offset is still where the
 * part began and the upload has not expired: of two requests that stored the same range, one
 * records it and the other learns it lost (null). The caller runs this in a transaction.
 */
export async function recordTusPart(
  tx: Database,
  upload: { id: string; organizationId: number },
  part: { startOffset: number; size: number; key: string },
  expiresAt: Date,
  now: Date,
): Promise<TusUploadRow | null> {
  const [row] = await tx
    .update(tusUploads)
    .set({
      uploadOffset: sql`${tusUploads.uploadOffset} + ${part.size}`,
      expiresAt,
    })
    .where(
      and(
        eq(tusUploads.id, upload.id),
        eq(tusUploads.organizationId, upload.organizationId),
        eq(tusUploads.uploadOffset, part.startOffset),
        gt(tusUploads.expiresAt, now),
      ),
    )
    .returning();
  if (!row) return null;
  await tx.insert(tusUploadParts).values({ uploadId: upload.id, ...part });
  return row;
}

/**
 * Removes an upload of this organization and person and answers it with its parts in offset
 * order (the caller deletes their objects), or null when it is already gone. The row is locked
 * first, so a finish and a delete racing for it cannot both take it.
 */
export async function takeTusUpload(
  tx: Database,
  upload: { id: string; organizationId: number; userId: number },
): Promise<{ upload: TusUploadRow; parts: TusUploadPartRow[] } | null> {
  const [row] = await tx
    .select()
    .from(tusUploads)
    .where(
      and(
        eq(tusUploads.id, upload.id),
        eq(tusUploads.organizationId, upload.organizationId),
        eq(tusUploads.userId, upload.userId),
      ),
    )
    .for("update")
    .limit(1);
  if (!row) return null;
  const parts = await tx
    .select()
    .from(tusUploadParts)
    .where(eq(tusUploadParts.uploadId, row.id))
    .orderBy(asc(tusUploadParts.startOffset));
  await tx.delete(tusUploads).where(eq(tusUploads.id, row.id));
  return { upload: row, parts };
}

/** Expired uploads with their part keys, deleted as they are returned (one sweeper each). */
export async function takeExpiredTusUploads(
  tx: Database,
  now: Date,
  limit: number,
): Promise<{ uploads: TusUploadRow[]; partKeys: string[] }> {
  const uploads = await tx
    .select()
    .from(tusUploads)
    .where(lt(tusUploads.expiresAt, now))
    .limit(limit)
    .for("update", { skipLocked: true });
  if (uploads.length === 0) return { uploads, partKeys: [] };
  const ids = uploads.map((row) => row.id);
  const parts = await tx
    .select({ key: tusUploadParts.key })
    .from(tusUploadParts)
    .where(anyOf(tusUploadParts.uploadId, ids));
  await tx.delete(tusUploads).where(anyOf(tusUploads.id, ids));
  return { uploads, partKeys: parts.map((part) => part.key) };
}

/** Which of `keys` a resumable upload's part still points at. */
export async function findKeysReferencedByTusParts(db: Database, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select({ key: tusUploadParts.key })
    .from(tusUploadParts)
    .where(anyOf(tusUploadParts.key, keys));
  return rows.map((row) => row.key);
}
