import { and, asc, count, eq, gt, gte, isNull, lt, or } from "drizzle-orm";
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
 * Makes `writer` the one request that may store bytes of the upload, while the upload stands at
 * `offset` and has not expired, and no other writer's claim is still running. Null otherwise.
 */
export async function claimTusWriter(
  db: Database,
  upload: { id: string; organizationId: number },
  claim: { offset: number; writer: string; until: Date; now: Date },
): Promise<TusUploadRow | null> {
  const [row] = await db
    .update(tusUploads)
    .set({ writer: claim.writer, writerUntil: claim.until })
    .where(
      and(
        eq(tusUploads.id, upload.id),
        eq(tusUploads.organizationId, upload.organizationId),
        eq(tusUploads.uploadOffset, claim.offset),
        gt(tusUploads.expiresAt, claim.now),
        or(isNull(tusUploads.writerUntil), lt(tusUploads.writerUntil, claim.now)),
      ),
    )
    .returning();
  return row ?? null;
}

/** Keeps a writer's claim running; false once it is no longer the writer. */
export async function renewTusWriter(
  db: Database,
  id: string,
  writer: string,
  until: Date,
): Promise<boolean> {
  const rows = await db
    .update(tusUploads)
    .set({ writerUntil: until })
    .where(and(eq(tusUploads.id, id), eq(tusUploads.writer, writer)))
    .returning({ id: tusUploads.id });
  return rows.length > 0;
}

export async function releaseTusWriter(db: Database, id: string, writer: string): Promise<void> {
  await db
    .update(tusUploads)
    .set({ writer: null, writerUntil: null })
    .where(and(eq(tusUploads.id, id), eq(tusUploads.writer, writer)));
}

export async function listTusParts(db: Database, uploadId: string): Promise<TusUploadPartRow[]> {
  return db
    .select()
    .from(tusUploadParts)
    .where(eq(tusUploadParts.uploadId, uploadId))
    .orderBy(asc(tusUploadParts.startOffset));
}

/**
 * Records a stored part and moves the offset past it, only while `writer` holds the upload at
 * `from` (where the part's new bytes began) and it has not expired. A part that took in the parts
 * before it begins at the first of them and replaces their rows; their object keys are answered
 * for deletion. Null when the writer lost the upload. The caller runs this in a transaction.
 */
export async function recordTusPart(
  tx: Database,
  upload: { id: string; organizationId: number },
  writer: { writer: string; from: number },
  part: { startOffset: number; size: number; key: string | null; detail: string | null },
  expiresAt: Date,
  now: Date,
): Promise<{ row: TusUploadRow; replacedKeys: string[] } | null> {
  const [row] = await tx
    .update(tusUploads)
    .set({ uploadOffset: part.startOffset + part.size, expiresAt })
    .where(
      and(
        eq(tusUploads.id, upload.id),
        eq(tusUploads.organizationId, upload.organizationId),
        eq(tusUploads.writer, writer.writer),
        eq(tusUploads.uploadOffset, writer.from),
        gt(tusUploads.expiresAt, now),
      ),
    )
    .returning();
  if (!row) return null;
  const replaced = await tx
    .delete(tusUploadParts)
    .where(and(eq(tusUploadParts.uploadId, upload.id), gte(tusUploadParts.startOffset, part.startOffset)))
    .returning({ key: tusUploadParts.key });
  await tx.insert(tusUploadParts).values({ uploadId: upload.id, ...part });
  const replacedKeys = replaced.flatMap((old) => (old.key && old.key !== part.key ? [old.key] : []));
  return { row, replacedKeys };
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

/** Expired uploads with their parts, deleted as they are returned (one sweeper each). */
export async function takeExpiredTusUploads(
  tx: Database,
  now: Date,
  limit: number,
): Promise<{ upload: TusUploadRow; parts: TusUploadPartRow[] }[]> {
  const uploads = await tx
    .select()
    .from(tusUploads)
    .where(lt(tusUploads.expiresAt, now))
    .limit(limit)
    .for("update", { skipLocked: true });
  if (uploads.length === 0) return [];
  const ids = uploads.map((row) => row.id);
  const parts = await tx
    .select()
    .from(tusUploadParts)
    .where(anyOf(tusUploadParts.uploadId, ids))
    .orderBy(asc(tusUploadParts.startOffset));
  await tx.delete(tusUploads).where(anyOf(tusUploads.id, ids));
  return uploads.map((upload) => ({ upload, parts: parts.filter((part) => part.uploadId === upload.id) }));
}

/** Which of `ids` are uploads still going (their scratch objects are theirs, not leftovers). */
export async function findExistingTusUploadIds(db: Database, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: tusUploads.id }).from(tusUploads).where(anyOf(tusUploads.id, ids));
  return new Set(rows.map((row) => row.id));
}

/** True while an upload is being assembled into `key` (its unfinished write is not a leftover). */
export async function isTusUploadTarget(db: Database, key: string): Promise<boolean> {
  const rows = await db
    .select({ id: tusUploads.id })
    .from(tusUploads)
    .where(eq(tusUploads.targetKey, key))
    .limit(1);
  return rows.length > 0;
}
