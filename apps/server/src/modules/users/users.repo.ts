import { eq } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { users } from "../../platform/db/schema/index.ts";

export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
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
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error("user insert returned no row");
  return created;
}
