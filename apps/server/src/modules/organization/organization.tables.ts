import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { plans } from "../plan/plan.tables.ts";
import { users } from "../users/users.tables.ts";

export const organizations = pgTable(
  "organizations",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    title: text("title").notNull(),
    subdomain: text("subdomain").notNull(),
    logoKey: text("logo_key"),
    planId: bigint("plan_id", { mode: "number" })
      .notNull()
      .references(() => plans.id),
    /** SDK clients embed this key in apps, so it is an identifier rather than a secret. */
    sdkKey: text("sdk_key").notNull(),
    // Usage counters move in the same transaction as the rows they count.
    spaceUsedBytes: bigint("space_used_bytes", { mode: "number" }).notNull().default(0),
    buildsCount: integer("builds_count").notNull().default(0),
    projectsCount: integer("projects_count").notNull().default(0),
    /** Uploads waiting for confirmation hold their space (and a build slot) until confirmed or expired. */
    pendingUploadBytes: bigint("pending_upload_bytes", { mode: "number" }).notNull().default(0),
    pendingUploads: integer("pending_uploads").notNull().default(0),
    /**
     * Bumped by database triggers whenever the organization's apps, versions, projects or
     * project members change; cached list pages are valid while it stays the same.
     */
    catalogVersion: bigint("catalog_version", { mode: "number" }).notNull().default(0),
    /**
     * Bumped by database triggers whenever the organization's people change: members, their
     * names and addresses, teams, testers and tester groups; cached staff and tester lists are
     * valid while it stays the same.
     */
    directoryVersion: bigint("directory_version", { mode: "number" }).notNull().default(0),
    /**
     * Limits an instance administrator set for this organization alone, over its plan's (same
     * units and 0 = unlimited): `space_limit` (MB), `build_limit`, `projects_limit`, `user_limit`.
     */
    limitOverrides: jsonb("limit_overrides").$type<LimitOverrides>().notNull().default({}),
    limitNotifiedAt: timestamp("limit_notified_at", { withTimezone: true }),
    deletingAt: timestamp("deleting_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("organizations_subdomain_key").on(table.subdomain)],
);

export interface LimitOverrides {
  space_limit?: number;
  build_limit?: number;
  projects_limit?: number;
  user_limit?: number;
}

/** What happened to an organization's plan and settings, who did it and when (the activity log). */
export const organizationActivity = pgTable(
  "organization_activity",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Null for changes no person made (the billing provider, a scheduled job). */
    actorUserId: bigint("actor_user_id", { mode: "number" }).references(() => users.id, {
      onDelete: "set null",
    }),
    action: text("action").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("organization_activity_org_idx").on(table.organizationId, table.id)],
);

/** A user's place in an organization. Roles: 1 owner, 2 admin, 3 mobile user, 4 team manager, 5 tester. */
export const memberships = pgTable(
  "memberships",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: smallint("role").notNull(),
    invitedBy: bigint("invited_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("memberships_org_user_key").on(table.organizationId, table.userId),
    index("memberships_user_idx").on(table.userId),
    // The staff list sorts an organization's members by role.
    index("memberships_org_role_idx").on(table.organizationId, table.role, table.userId),
  ],
);

/**
 * A place offered to a person who has not accepted it yet: no access, no listing among the
 * members, no power over the account. It holds a seat of the plan until it is accepted,
 * declined, cancelled or expires. Teams and projects are applied on acceptance (those that
 * still exist then).
 */
export const organizationInvitations = pgTable(
  "organization_invitations",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The address as the inviter typed it (normalized): shown instead of anything of the account. */
    email: text("email").notNull(),
    role: smallint("role").notNull(),
    teamIds: bigint("team_ids", { mode: "number" }).array().notNull().default([]),
    projectIds: bigint("project_ids", { mode: "number" }).array().notNull().default([]),
    /** Names as the inviter typed them; the account's own names are not shown to the inviter. */
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    invitedBy: bigint("invited_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("organization_invitations_org_user_key").on(table.organizationId, table.userId),
    index("organization_invitations_user_idx").on(table.userId),
  ],
);
