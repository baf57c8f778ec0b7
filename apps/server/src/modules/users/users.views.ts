import { ilike, or } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { likePattern } from "../../platform/db/like-pattern.ts";
import { users } from "./users.tables.ts";

/**
 * A read-only view of people for lists kept by other modules (staff, project members, teams):
 * join it to filter and sort by name or address in one statement. It publishes no secrets, and
 * nothing can be written through it; the `users` table stays this module's.
 */
export const userDirectory = new QueryBuilder()
  .select({
    userId: users.id,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    isActive: users.isActive,
    twoFactorEnabled: users.twoFactorEnabled,
  })
  .from(users)
  .as("user_directory");

/** People whose address or name contains `search` (case-insensitive; `%` and `_` match themselves). */
export function userDirectoryMatches(search: string | undefined) {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return or(
    ilike(userDirectory.email, pattern),
    ilike(userDirectory.firstName, pattern),
    ilike(userDirectory.lastName, pattern),
  );
}
