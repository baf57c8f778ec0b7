import { and, eq, ne } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { authTokens, users } from "../../platform/db/schema/index.ts";

export type UserRow = typeof users.$inferSelect;

/** E-mail addresses are kept lower-cased and trimmed, so lookups compare like with like. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Database, userId: number) {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

export async function insertUser(
  db: Database,
  row: {
    email: string;
    firstName?: string;
    lastName?: string;
    isActive: boolean;
    passwordHash?: string | null;
  },
) {
  const [created] = await db
    .insert(users)
    .values({ ...row, email: normalizeEmail(row.email) })
    .returning();
  if (!created) throw new Error("user insert returned no row");
  return created;
}

export async function updateUser(
  db: Database,
  userId: number,
  changes: Partial<Omit<typeof users.$inferInsert, "id" | "email" | "createdAt">>,
) {
  const [updated] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
  return updated ?? null;
}

export async function deleteUser(db: Database, userId: number): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

/** Revokes the user's live session tokens, except `keepTokenId` (the caller's own, on a password change). */
export async function revokeUserSessions(db: Database, userId: number, now: Date, keepTokenId?: number) {
  const conditions = [eq(authTokens.userId, userId), eq(authTokens.kind, "session")];
  if (keepTokenId !== undefined) conditions.push(ne(authTokens.id, keepTokenId));
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(...conditions));
}

/** Revokes every API key of the user (a new key replaces them). */
export async function revokeUserApiKeys(db: Database, userId: number, now: Date) {
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, "api_key")));
}

export function displayName(user: Pick<UserRow, "firstName" | "lastName" | "email">): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name || user.email;
}
