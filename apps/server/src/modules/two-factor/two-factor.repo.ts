import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { recoveryCodes } from "./two-factor.tables.ts";

export async function replaceRecoveryCodes(db: Database, userId: number, codeHashes: string[]) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (codeHashes.length > 0) {
    await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  }
}

/** Uses a recovery code once; false when unknown or already used. */
export async function consumeRecoveryCode(db: Database, userId: number, codeHash: string, now: Date) {
  const updated = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return updated.length === 1;
}

export async function listRecoveryCodeStates(db: Database, userId: number) {
  return db
    .select({ usedAt: recoveryCodes.usedAt })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId));
}
