import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { foldedColumn, searchText } from "../../platform/db/text-search.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/**
 * A row's own fields as JSON text, exactly as the API record shows them, rendered by a BEFORE
 * trigger on every insert and update (migration 0024, render_*_record). Reading a record's worth
 * of a row is then one text value instead of some thirty typed ones, which is most of what a
 * list page not yet kept costs; what a record takes from elsewhere (the app, the uploader, the
 * project, signed links) is added when it is presented.
 */
const recordJson = () => text("record_json").notNull().default("{}");

/** A project groups one app per platform under one title (spec: project_title). */
export const projects = pgTable(
  "projects",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The folded title, which the apps list's search also matches. */
    searchText: searchText(foldedColumn("title")),
    /**
     * What an app's record takes from its project (ProjectContext: the title, the project's apps
     * and its members' ids) as JSON text, rendered by triggers on every change to the project, its
     * apps and its members (migration 0025): a list page reads it by key instead of gathering it.
     */
    contextJson: text("context_json").notNull().default(""),
  },
  (table) => [index("projects_org_idx").on(table.organizationId)],
);

/** Project members (spec: project user) with their environment access. */
export const projectMembers = pgTable(
  "project_members",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: bigint("project_id", { mode: "number" })
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: smallint("role").notNull(),
    isAccessAllEnvs: boolean("is_access_all_envs").notNull().default(true),
    accessEnvs: text("access_envs").array().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("project_members_project_user_key").on(table.projectId, table.userId)],
);

/**
 * One app of a project: one platform (app_type 0 Android, 1 iOS, 2 Windows, 3 macOS) in one
 * environment. The project's other platforms in the same environment are its `other_platform`.
 */
export const applications = pgTable(
  "applications",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: bigint("project_id", { mode: "number" })
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    appType: smallint("app_type").notNull(),
    environment: text("environment").notNull().default("Production"),
    description: text("description").notNull().default(""),
    /** Public identifier used in CI upload and install links; rotated with ?newappkey=1. */
    appKey: text("app_key").notNull(),
    /** Bundle or package id of the builds (spec: unique_app_id); set by the first build. */
    bundleId: text("bundle_id"),
    /** Incoming-webhook URLs are credentials, so they are stored sealed (SecretBox). */
    slackWebhookSealed: text("slack_webhook_sealed"),
    slackChannel: text("slack_channel").notNull().default(""),
    /** auto (read from the webhook URL's host), slack, teams or discord. */
    chatFormat: text("chat_format").notNull().default("auto"),
    readyToSale: boolean("ready_to_sale").notNull().default(true),
    /** The SDK protocol's switches: feedback from the app, and update prompts in it. */
    feedbackEnabled: boolean("feedback_enabled").notNull().default(true),
    autoUpdateEnabled: boolean("autoupdate_enabled").notNull().default(true),
    currentVersionId: bigint("current_version_id", { mode: "number" }),
    versionsCount: integer("versions_count").notNull().default(0),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Title and bundle id, folded: what the apps list's search matches (in memory, see listApplications). */
    searchText: searchText(sql`public.search_fold(coalesce(title, '') || ' ' || coalesce(bundle_id, ''))`),
    /**
     * The project's folded title, which the apps list's search matches too: kept on the app by
     * triggers (migration 0025), so loading a list reads no project.
     */
    projectSearchText: text("project_search_text").notNull().default(""),
    /** The app's own fields as its API record shows them, JSON the database renders on every write (see recordJson). */
    recordJson: recordJson(),
  },
  (table) => [
    uniqueIndex("applications_app_key_key").on(table.appKey),
    uniqueIndex("applications_project_type_env_key").on(table.projectId, table.appType, table.environment),
    index("applications_org_updated_idx").on(table.organizationId, table.updatedAt.desc(), table.id.desc()),
    // The list filtered by platform (the web app's platform switch).
    index("applications_org_type_updated_idx").on(
      table.organizationId,
      table.appType,
      table.updatedAt.desc(),
      table.id.desc(),
    ),
    // The install list sorts by the current build, newest first.
    index("applications_org_current_idx").on(table.organizationId, table.currentVersionId.desc()),
  ],
);

/** One uploaded build of an app, with what the inspector read from it. */
export const versions = pgTable(
  "versions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    version: text("version").notNull(),
    buildNumber: text("build_number").notNull(),
    /** processing (e.g. AAB conversion or file exchange under way), ready, failed. */
    state: text("state").notNull().default("ready"),
    fileKey: text("file_key").notNull(),
    fileName: text("file_name").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
    iconKey: text("icon_key"),
    /** A universal APK made from an AAB, when a converter is configured. */
    universalApkKey: text("universal_apk_key"),
    universalApkSize: bigint("universal_apk_size", { mode: "number" }).notNull().default(0),
    bundleId: text("bundle_id"),
    minOsVersion: text("min_os_version"),
    /** The inspector's BuildInfo without the icon bytes. */
    buildInfo: jsonb("build_info").notNull().default({}),
    whatsNew: text("whats_new").notNull().default(""),
    comment: text("comment").notNull().default(""),
    readyToSale: boolean("ready_to_sale").notNull().default(true),
    gitBranch: text("git_branch"),
    gitTag: text("git_tag"),
    gitCommit: text("git_commit"),
    /** The repository the build came from, as CI sent it (a web URL is linked on the app page). */
    gitUrl: text("git_url"),
    /** Who built it, as CI said: "CI", "Fastlane", "Gradle", "bitrise", ... */
    buildType: text("build_type"),
    /** The bundle version CI read from the build (fastlane sends CFBundleVersion). */
    customBundleVersion: text("custom_bundle_version"),
    uploadedBy: bigint("uploaded_by", { mode: "number" }).references(() => users.id, {
      onDelete: "set null",
    }),
    downloadCount: integer("download_count").notNull().default(0),
    installCount: integer("install_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** The build's own fields as the API shows them, JSON the database renders on every write (see recordJson). */
    recordJson: recordJson(),
  },
  (table) => [
    // The same version and build twice is error 2; the index settles races the lock misses.
    uniqueIndex("versions_app_version_build_key").on(table.applicationId, table.version, table.buildNumber),
    index("versions_app_created_idx").on(table.applicationId, table.id.desc()),
    index("versions_org_idx").on(table.organizationId),
  ],
);

/** The app's activity log (uploads, deletions, file exchanges, settings changes). */
export const appLogs = pgTable(
  "app_logs",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    versionId: bigint("version_id", { mode: "number" }),
    action: text("action").notNull(),
    detail: jsonb("detail").notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("app_logs_app_idx").on(table.applicationId, table.id.desc())],
);
