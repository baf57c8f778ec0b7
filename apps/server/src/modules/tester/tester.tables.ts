import { sql } from "drizzle-orm";
import { bigint, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { searchText } from "../../platform/db/text-search.ts";
import { applications } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/** A group of testers of one app (spec: group of testers). */
export const testerGroups = pgTable(
  "tester_groups",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("tester_groups_app_title_key").on(table.applicationId, table.title)],
);

/** A tester of one app, by e-mail (an account is linked when the address has one). */
export const testers = pgTable(
  "testers",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text("email").notNull(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    searchText: searchText(sql`public.person_search_text(first_name, last_name, email)`),
  },
  (table) => [uniqueIndex("testers_app_email_key").on(table.applicationId, table.email)],
);

export const testerGroupMembers = pgTable(
  "tester_group_members",
  {
    groupId: bigint("group_id", { mode: "number" })
      .notNull()
      .references(() => testerGroups.id, { onDelete: "cascade" }),
    testerId: bigint("tester_id", { mode: "number" })
      .notNull()
      .references(() => testers.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.testerId] })],
);

/** Saved extra recipient addresses of an app (spec: app mail), chosen in "send to testers". */
export const appMails = pgTable(
  "app_mails",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("app_mails_app_email_key").on(table.applicationId, table.email)],
);
