import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { authTokens, users } from "../../platform/db/schema/index.ts";

export async function insertToken(
  db: Database,
  row: { userId: number; tokenHash: string; kind: "session" | "api_key"; expiresAt: Date | null },
): Promise<number> {
  const [created] = await db.insert(authTokens).values(row).returning({ id: authTokens.id });
  if (!created) throw new Error("token insert returned no row");
  return created.id;
}

/** A live token (not revoked, not expired) with its active user. */
export async function findLiveToken(db: Database, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      tokenId: authTokens.id,
      kind: authTokens.kind,
      userId: users.id,
      email: users.email,
      isActive: users.isActive,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        isNull(authTokens.revokedAt),
        or(isNull(authTokens.expiresAt), gt(authTokens.expiresAt, now)),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function markTokenUsed(db: Database, tokenId: number, now: Date): Promise<void> {
  await db.update(authTokens).set({ lastUsedAt: now }).where(eq(authTokens.id, tokenId));
}

export async function revokeToken(db: Database, tokenId: number, now: Date): Promise<void> {
  await db.update(authTokens).set({ revokedAt: now }).where(eq(authTokens.id, tokenId));
}
