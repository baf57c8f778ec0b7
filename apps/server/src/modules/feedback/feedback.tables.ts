import { bigint, index, integer, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { applications, versions } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/** A report sent from inside an app (the SDK's shake-to-report): screenshot, words, device. */
export const feedbackItems = pgTable(
  "feedback_items",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    /** The build whose version the app reported, when it was uploaded here. */
    versionId: bigint("version_id", { mode: "number" }).references(() => versions.id, {
      onDelete: "set null",
    }),
    /** 0 new, 1 in progress, 2 resolved, 3 won't fix. */
    status: smallint("status").notNull().default(0),
    tag: text("tag").notNull(),
    description: text("description").notNull().default(""),
    email: text("email").notNull().default(""),
    buildVersion: text("build_version").notNull().default(""),
    systemVersion: text("system_version").notNull().default(""),
    deviceName: text("device_name").notNull().default(""),
    deviceId: text("device_id").notNull().default(""),
    navigationStack: text("navigation_stack").notNull().default(""),
    imageKey: text("image_key"),
    imageType: text("image_type").notNull().default(""),
    imageWidth: integer("image_width").notNull().default(0),
    imageHeight: integer("image_height").notNull().default(0),
    imageSize: integer("image_size").notNull().default(0),
    assigneeId: bigint("assignee_id", { mode: "number" }).references(() => users.id, {
      onDelete: "set null",
    }),
    internalNote: text("internal_note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("feedback_items_app_idx").on(table.applicationId, table.id.desc()),
    index("feedback_items_org_idx").on(table.organizationId, table.id.desc()),
    index("feedback_items_version_idx").on(table.versionId),
  ],
);
