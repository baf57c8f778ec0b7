import { QueryBuilder } from "drizzle-orm/pg-core";
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
    searchText: users.searchText,
  })
  .from(users)
  .as("user_directory");
