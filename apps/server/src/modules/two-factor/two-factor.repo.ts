import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { recoveryCodes, users } from "../../platform/db/schema/index.ts";

export async function findTwoFactorState(db: Database, userId: number) {
  const [row] = await db
    .select({
      email: users.email,
      passwordHash: users.passwordHash,
      secret: users.twoFactorSecret,
      enabled: users.twoFactorEnabled,
      lastStep: users.twoFactorLastStep,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

export async function saveTwoFactorState(
  db: Database,
  userId: number,
  state: { secret?: string | null; enabled?: boolean; lastStep?: number | null },
) {
  await db
    .update(users)
    .set({
      ...(state.secret !== undefined ? { twoFactorSecret: state.secret } : {}),
      ...(state.enabled !== undefined ? { twoFactorEnabled: state.enabled } : {}),
      ...(state.lastStep !== undefined ? { twoFactorLastStep: state.lastStep } : {}),
    })
    .where(eq(users.id, userId));
}

/**
 * Moves the last accepted step forward only if it is still behind `step`: two requests carrying
 * the same code cannot both win.
 */
export async function advanceLastStep(db: Database, userId: number, step: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ twoFactorLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
    .returning({ last: users.twoFactorLastStep });
  return updated.length === 1;
}

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
