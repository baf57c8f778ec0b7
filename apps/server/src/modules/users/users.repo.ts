import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { anyOf } from "../../platform/db/any-of.ts";
import type { Database } from "../../platform/db/client.ts";
import { preparedPerDatabase } from "../../platform/db/prepared.ts";
import { users } from "./users.tables.ts";

export type UserRow = typeof users.$inferSelect;
export type UserChanges = Partial<Omit<typeof users.$inferInsert, "id" | "email" | "createdAt">>;

/** E-mail addresses are kept lower-cased and trimmed, so lookups compare like with like. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Database, userId: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** What other modules are shown of people: never a password hash or a second factor's secret. */
const summaryColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
};

const usersByIdsQuery = preparedPerDatabase((db) =>
  db
    .select(summaryColumns)
    .from(users)
    .where(anyOf(users.id, sql.placeholder("ids")))
    .prepare("users_by_ids"),
);

/** People by id, as summaries. */
export async function findUsersByIds(db: Database, userIds: number[]) {
  if (userIds.length === 0) return [];
  return usersByIdsQuery(db).execute({ ids: userIds });
}

/** People by address, as summaries. */
export async function findUsersByEmails(db: Database, emails: string[]) {
  if (emails.length === 0) return [];
  return db
    .select(summaryColumns)
    .from(users)
    .where(anyOf(users.email, emails.map(normalizeEmail)));
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
): Promise<UserRow> {
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
  changes: UserChanges,
): Promise<UserRow | null> {
  const [updated] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
  return updated ?? null;
}

export async function deleteUser(db: Database, userId: number): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

/**
 * Moves the last accepted TOTP step forward only if it is still behind `step`: two requests
 * carrying the same code cannot both win.
 */
export async function advanceTwoFactorStep(db: Database, userId: number, step: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ twoFactorLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
    .returning({ id: users.id });
  return updated.length === 1;
}

/** Locks the user's row for the rest of `tx`, so one person's requests happen one at a time; false if gone. */
export async function lockUser(db: Database, userId: number): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  return rows.length === 1;
}
