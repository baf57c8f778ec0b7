import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/**
 * How an organization's people sign in with their company account: one row per kind (oidc now;
 * okta, google, entra, custom for SAML). Settings that are not secret live in `settings`; the
 * secret (OIDC client secret, SAML signing key) is sealed.
 */
export const ssoConnections = pgTable(
  "sso_connections",
  {
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** The role of a member made by a first sign-in. */
    defaultRole: smallint("default_role").notNull().default(3),
    /** E-mail domains this sign-in is for (empty: any address the provider vouches for). */
    allowedDomains: text("allowed_domains").array().notNull().default([]),
    settings: jsonb("settings").notNull(),
    secretSealed: text("secret_sealed"),
    revision: integer("revision").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.kind] })],
);

/** "Require SSO": the organization's members (except the owner) may not sign in with a password. */
export const ssoPolicies = pgTable("sso_policies", {
  organizationId: bigint("organization_id", { mode: "number" })
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  requireSso: boolean("require_sso").notNull().default(false),
});

/**
 * A sign-in under way, between leaving for the identity provider and coming back. In the
 * database so that any instance can finish what another started; used once, then deleted.
 */
export const ssoLoginStates = pgTable(
  "sso_login_states",
  {
    state: text("state").primaryKey(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** What the answer must carry: the OIDC nonce, or the ID of the SAML AuthnRequest (InResponseTo). */
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    nextPath: text("next_path").notNull().default("/dashboard"),
    /** Set when a signed-in person links their account to this provider instead of signing in. */
    linkUserId: bigint("link_user_id", { mode: "number" }).references(() => users.id, {
      onDelete: "cascade",
    }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sso_login_states_expires_idx").on(table.expiresAt)],
);

/** SAML requests sent and not answered yet (InResponseTo), shared by every instance. */
export const ssoSamlRequests = pgTable(
  "sso_saml_requests",
  {
    id: text("id").primaryKey(),
    value: text("value").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("sso_saml_requests_created_idx").on(table.createdAt)],
);

/** Assertions already used to sign in: one may not be played again while it is still valid. */
export const ssoUsedAssertions = pgTable(
  "sso_used_assertions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sso_used_assertions_expires_idx").on(table.expiresAt)],
);

/**
 * The accounts an organization's identity provider may sign in: those its sign-in created, and
 * those whose owners linked them (only while the organization has proven the address's domain).
 */
export const ssoIdentities = pgTable(
  "sso_identities",
  {
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    origin: text("origin", { enum: ["created", "linked"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    index("sso_identities_user_idx").on(table.userId),
  ],
);

/**
 * E-mail domains an organization claims. A claim counts only once proven by a DNS TXT record
 * (and while re-checks keep finding it); one organization at a time holds a proven domain.
 */
export const ssoDomains = pgTable(
  "sso_domains",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    /** The value the TXT record must hold; random per claim, not a secret. */
    token: text("token").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    /** Re-checks in a row that did not find the record; the proof lapses at a few. */
    failedChecks: integer("failed_checks").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("sso_domains_org_domain_key").on(table.organizationId, table.domain),
    uniqueIndex("sso_domains_verified_key").on(table.domain).where(sql`verified_at is not null`),
  ],
);

/** Links offered by mail to a person the provider vouched for; used once. Only hashes are kept. */
export const ssoLinkRequests = pgTable(
  "sso_link_requests",
  {
    codeHash: text("code_hash").primaryKey(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sso_link_requests_expires_idx").on(table.expiresAt)],
);

/**
 * A single sign-on that still needs the account's own second factor: the provider vouched for
 * the person, the session waits for the code. Only the ticket's hash is kept.
 */
export const ssoSecondFactorTickets = pgTable(
  "sso_second_factor_tickets",
  {
    ticketHash: text("ticket_hash").primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    nextPath: text("next_path").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sso_second_factor_tickets_expires_idx").on(table.expiresAt)],
);
