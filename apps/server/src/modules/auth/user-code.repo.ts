import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { userCodes } from "./auth.tables.ts";

export type UserCodeKind = "activation" | "password_reset" | "invitation";
export type UserCodeRow = typeof userCodes.$inferSelect;

export async function insertUserCode(
  db: Database,
  row: {
    userId: number;
    kind: UserCodeKind;
    codeHash: string;
    expiresAt: Date;
    organizationId?: number | null;
  },
): Promise<void> {
  await db.insert(userCodes).values(row);
}

/**
 * Voids the unused codes of those kinds, so only the newest link works; with `organizationId`
 * only that organization's (each organization's invitation keeps its own link).
 */
export async function voidUserCodes(
  db: Database,
  userId: number,
  kinds: UserCodeKind[],
  now: Date,
  organizationId?: number,
) {
  await db
    .update(userCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(userCodes.userId, userId),
        anyOf(userCodes.kind, kinds),
        isNull(userCodes.usedAt),
        organizationId === undefined ? undefined : eq(userCodes.organizationId, organizationId),
      ),
    );
}

/** A code that is unused and unexpired. */
export async function findLiveUserCode(
  db: Database,
  codeHash: string,
  kinds: UserCodeKind[],
  now: Date,
): Promise<UserCodeRow | null> {
  const [row] = await db
    .select()
    .from(userCodes)
    .where(
      and(
        eq(userCodes.codeHash, codeHash),
        anyOf(userCodes.kind, kinds),
        isNull(userCodes.usedAt),
        gt(userCodes.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Marks a code used; false when another request used it first. */
export async function consumeUserCode(db: Database, codeId: number, now: Date): Promise<boolean> {
  const updated = await db
    .update(userCodes)
    .set({ usedAt: now })
    .where(and(eq(userCodes.id, codeId), isNull(userCodes.usedAt)))
    .returning({ id: userCodes.id });
  return updated.length === 1;
}

export async function hasLiveUserCode(db: Database, userId: number, kind: UserCodeKind, now: Date) {
  const [row] = await db
    .select({ id: userCodes.id })
    .from(userCodes)
    .where(
      and(
        eq(userCodes.userId, userId),
        eq(userCodes.kind, kind),
        isNull(userCodes.usedAt),
        gt(userCodes.expiresAt, now),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** E-mailed codes of a user without their hashes (personal data export). */
export async function listUserCodeMetadata(db: Database, userId: number) {
  return db
    .select({
      kind: userCodes.kind,
      createdAt: userCodes.createdAt,
      expiresAt: userCodes.expiresAt,
      usedAt: userCodes.usedAt,
    })
    .from(userCodes)
    .where(eq(userCodes.userId, userId))
    .orderBy(asc(userCodes.id));
}
