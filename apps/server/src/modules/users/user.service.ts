/**
 * Owns user accounts (the `users` table): lookups, creation, profile fields, the password hash
 * and the two-factor columns. Other modules read people through this service, or filter and
 * sort by them in one statement through the read-only `userDirectory` view it publishes.
 */
import { hashPassword, verifyPassword } from "../../platform/crypto/passwords.ts";
import type { Database } from "../../platform/db/client.ts";
import type { PersonalDataSection } from "../../platform/personal-data.ts";
import {
  advanceTwoFactorStep,
  deleteUser,
  findUserByEmail,
  findUserById,
  findUsersByEmails,
  findUsersByIds,
  insertUser,
  lockUser,
  type UserChanges,
  type UserRow,
  updateUser,
} from "./users.repo.ts";

export type { UserRow } from "./users.repo.ts";
export { normalizeEmail } from "./users.repo.ts";

export interface UserSummary {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
}

export function displayName(user: Pick<UserRow, "firstName" | "lastName" | "email">): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name || user.email;
}

export class UserService {
  constructor(private readonly deps: { db: Database }) {}

  findById(userId: number, db = this.deps.db): Promise<UserRow | null> {
    return findUserById(db, userId);
  }

  findByEmail(email: string, db = this.deps.db): Promise<UserRow | null> {
    return findUserByEmail(db, email);
  }

  /** Names and addresses of many people at once, keyed by id (one query per page, never per row). */
  async summaries(userIds: number[], db = this.deps.db): Promise<Map<number, UserSummary>> {
    const rows = await findUsersByIds(db, [...new Set(userIds)]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Accounts registered under any of these addresses, keyed by the lower-cased address. */
  async findByEmails(emails: string[], db = this.deps.db): Promise<Map<string, UserSummary>> {
    const rows = await findUsersByEmails(db, emails);
    return new Map(rows.map((row) => [row.email, row]));
  }

  create(
    row: {
      email: string;
      firstName?: string;
      lastName?: string;
      isActive: boolean;
      passwordHash?: string | null;
    },
    db = this.deps.db,
  ): Promise<UserRow> {
    return insertUser(db, row);
  }

  update(userId: number, changes: UserChanges, db = this.deps.db): Promise<UserRow | null> {
    return updateUser(db, userId, changes);
  }

  /** Sessions, keys, codes and memberships go with the row (foreign keys cascade). */
  delete(userId: number, db = this.deps.db): Promise<void> {
    return deleteUser(db, userId);
  }

  /** Serializes one person's requests inside `tx` (e.g. asking for a data export); false if gone. */
  lock(userId: number, tx: Database): Promise<boolean> {
    return lockUser(tx, userId);
  }

  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  /** Takes as long for an unknown user as for a known one. */
  async verifyPassword(userId: number, password: string): Promise<boolean> {
    return verifyPassword((await findUserById(this.deps.db, userId))?.passwordHash ?? null, password);
  }

  advanceTwoFactorStep(userId: number, step: number, db = this.deps.db): Promise<boolean> {
    return advanceTwoFactorStep(db, userId, step);
  }

  /** The profile section of a personal data export (no password hash, no 2FA secret). */
  readonly personalData: PersonalDataSection = {
    name: "profile",
    load: async (person) => {
      const user = await findUserById(this.deps.db, person.id);
      if (!user) return null;
      return {
        user_id: user.id,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        is_active: user.isActive,
        has_password: user.passwordHash !== null,
        two_factor_enabled: user.twoFactorEnabled,
        welcome_closed: user.welcomeClosed,
        date_joined: user.createdAt.toISOString(),
      };
    },
  };
}
