import { sql } from "drizzle-orm";
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { searchText } from "../../platform/db/text-search.ts";

export const users = pgTable(
  "users",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    isActive: boolean("is_active").notNull().default(false),
    /** TOTP secret sealed with the instance key (SecretBox); null until 2FA setup starts. */
    twoFactorSecret: text("two_factor_secret"),
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /** Last accepted TOTP time step, so a code cannot be replayed within its window. */
    twoFactorLastStep: bigint("two_factor_last_step", { mode: "number" }),
    welcomeClosed: boolean("welcome_closed").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Names and address, folded: what staff and member searches match. */
    searchText: searchText(sql`public.person_search_text(first_name, last_name, email)`),
  },
  (table) => [
    uniqueIndex("users_email_key").on(table.email),
    index("users_search_idx").using("gin", table.searchText.op("gin_trgm_ops")),
  ],
);

/** Session tokens and CI API keys; only the SHA-256 of the secret is stored. */
export const authTokens = pgTable(
  "auth_tokens",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    kind: text("kind", { enum: ["session", "api_key"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The organization whose single sign-on made this session (its admins may end it). */
    ssoOrganizationId: bigint("sso_organization_id", { mode: "number" }),
  },
  (table) => [
    uniqueIndex("auth_tokens_hash_key").on(table.tokenHash),
    index("auth_tokens_user_idx").on(table.userId),
    index("auth_tokens_sso_org_idx").on(table.ssoOrganizationId),
  ],
);
