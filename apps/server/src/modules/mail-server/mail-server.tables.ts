import { bigint, boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "../organization/organization.tables.ts";

/** The mail server an organization brought: its mail leaves through it while enabled. */
export const organizationMailServers = pgTable("organization_mail_servers", {
  organizationId: bigint("organization_id", { mode: "number" })
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  host: text("host").notNull(),
  port: integer("port").notNull(),
  /** starttls, tls, none. */
  security: text("security").notNull(),
  username: text("username").notNull().default(""),
  /** The SMTP password, sealed (SecretBox); null when the server takes no login. */
  sealedPassword: text("sealed_password"),
  fromName: text("from_name").notNull().default(""),
  fromEmail: text("from_email").notNull(),
  replyTo: text("reply_to").notNull().default(""),
  enabled: boolean("enabled").notNull().default(true),
  /** Bumped on every change: each process rebuilds its pooled transport when it sees a new one. */
  revision: integer("revision").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
