import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";
import { projects } from "./application.tables.ts";

/**
 * Permission groups: members of an organization who get access to projects together. A
 * member's access to a project is their own project membership or any of their groups' grants.
 */
export const permissionGroups = pgTable(
  "permission_groups",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("permission_groups_org_title_key").on(table.organizationId, table.title)],
);

export const permissionGroupMembers = pgTable(
  "permission_group_members",
  {
    groupId: bigint("group_id", { mode: "number" })
      .notNull()
      .references(() => permissionGroups.id, { onDelete: "cascade" }),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index("permission_group_members_user_idx").on(table.userId),
  ],
);

export const permissionGroupProjects = pgTable(
  "permission_group_projects",
  {
    groupId: bigint("group_id", { mode: "number" })
      .notNull()
      .references(() => permissionGroups.id, { onDelete: "cascade" }),
    projectId: bigint("project_id", { mode: "number" })
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.projectId] }),
    index("permission_group_projects_project_idx").on(table.projectId),
  ],
);
