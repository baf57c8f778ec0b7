import { and, desc, eq, gt, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { anyOf } from "../../platform/db/any-of.ts";
import { BatchedReads } from "../../platform/db/batched-reads.ts";
import type { Database } from "../../platform/db/client.ts";
import { preparedPerDatabase } from "../../platform/db/prepared.ts";
import { authTokens, users } from "./users.tables.ts";

export type TokenKind = "session" | "api_key";

export async function insertToken(
  db: Database,
  row: {
    userId: number;
    tokenHash: string;
    kind: TokenKind;
    expiresAt: Date | null;
    ssoOrganizationId?: number | null;
  },
): Promise<number> {
  const [created] = await db.insert(authTokens).values(row).returning({ id: authTokens.id });
  if (!created) throw new Error("token insert returned no row");
  return created.id;
}

/**
 * What the token's statement reads along for another module, per user: `column` is a scalar
 * subquery on the user's id (the organization module's live memberships, as JSON).
 */
export interface ReadAlongToken {
  /** Names the prepared statement: one text per name on a connection. */
  name: string;
  column: (userId: AnyPgColumn) => SQL;
}

/**
 * The tokens requests present, each with its user: prepared once per handle (preparedPerDatabase)
 * and read for many requests at once (BatchedReads), by their hashes as one array parameter.
 * Revoked tokens are left out; an expired one is returned with its expiry, which each request
 * checks against its own time.
 */
function unrevokedTokensLookup(readAlong?: ReadAlongToken) {
  const query = preparedPerDatabase((db) =>
    db
      .select({
        tokenHash: authTokens.tokenHash,
        tokenId: authTokens.id,
        kind: authTokens.kind,
        userId: users.id,
        email: users.email,
        isActive: users.isActive,
        twoFactorEnabled: users.twoFactorEnabled,
        expiresAt: authTokens.expiresAt,
        ssoOrganizationId: authTokens.ssoOrganizationId,
        along: readAlong ? readAlong.column(users.id) : sql<null>`null`,
      })
      .from(authTokens)
      .innerJoin(users, eq(users.id, authTokens.userId))
      .where(and(anyOf(authTokens.tokenHash, sql.placeholder("tokenHashes")), isNull(authTokens.revokedAt)))
      .prepare(readAlong ? `unrevoked_tokens_${readAlong.name}` : "unrevoked_tokens"),
  );
  return async (db: Database, tokenHashes: string[]) => {
    const rows = await query(db).execute({ tokenHashes });
    return new Map(rows.map((row) => [row.tokenHash, row]));
  };
}

/** Reads of tokens by hash on `db`, those asked together answered by one statement. */
export function batchedTokenReads(db: Database, readAlong?: ReadAlongToken) {
  const lookup = unrevokedTokensLookup(readAlong);
  return new BatchedReads((tokenHashes: string[]) => lookup(db, tokenHashes));
}

export async function markTokenUsed(db: Database, tokenId: number, now: Date): Promise<void> {
  await db.update(authTokens).set({ lastUsedAt: now }).where(eq(authTokens.id, tokenId));
}

export async function revokeToken(db: Database, tokenId: number, now: Date): Promise<void> {
  await db.update(authTokens).set({ revokedAt: now }).where(eq(authTokens.id, tokenId));
}

/** Revokes the user's live tokens of a kind, except `keepTokenId` (the caller's own session). */
export async function revokeUserTokens(
  db: Database,
  userId: number,
  kind: TokenKind,
  now: Date,
  keepTokenId?: number,
): Promise<void> {
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(authTokens.userId, userId),
        eq(authTokens.kind, kind),
        isNull(authTokens.revokedAt),
        keepTokenId === undefined ? undefined : ne(authTokens.id, keepTokenId),
      ),
    );
}

/** Whether the user holds a key of this kind that still works (keys made for CI never expire). */
export async function hasUnrevokedToken(db: Database, userId: number, kind: TokenKind): Promise<boolean> {
  const [row] = await db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.revokedAt)))
    .limit(1);
  return row !== undefined;
}

export async function listUserTokens(db: Database, userId: number) {
  return db
    .select({
      kind: authTokens.kind,
      createdAt: authTokens.createdAt,
      expiresAt: authTokens.expiresAt,
      lastUsedAt: authTokens.lastUsedAt,
      revokedAt: authTokens.revokedAt,
    })
    .from(authTokens)
    .where(eq(authTokens.userId, userId))
    .orderBy(authTokens.id);
}

/** Live sessions an organization's single sign-on made, with their people. */
export function listSsoSessions(db: Database, organizationId: number, now: Date) {
  return db
    .select({
      userId: authTokens.userId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      createdAt: authTokens.createdAt,
      lastUsedAt: authTokens.lastUsedAt,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(
      and(
        eq(authTokens.ssoOrganizationId, organizationId),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .orderBy(desc(authTokens.createdAt))
    .limit(1000);
}

/** Ends the person's sessions made by the organization's single sign-on; returns how many. */
export async function revokeSsoSessions(db: Database, organizationId: number, userId: number, now: Date) {
  const revoked = await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(authTokens.ssoOrganizationId, organizationId),
        eq(authTokens.userId, userId),
        isNull(authTokens.revokedAt),
      ),
    )
    .returning({ id: authTokens.id });
  return revoked.map((row) => row.id);
}
