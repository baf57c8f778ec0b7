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
} from "drizzle-orm/pg-core";
import { organizations } from "../organization/organization.tables.ts";

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
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    nextPath: text("next_path").notNull().default("/dashboard"),
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
