import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { applications } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/** One e-mail of a "send to testers" batch, with its delivery state. */
export const testerMails = pgTable(
  "tester_mails",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    applicationId: bigint("application_id", { mode: "number" })
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    batchId: text("batch_id").notNull(),
    email: text("email").notNull(),
    /** queued, sent, failed. */
    state: text("state").notNull().default("queued"),
    error: text("error"),
    sentBy: bigint("sent_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("tester_mails_app_idx").on(table.applicationId, table.id.desc())],
);
