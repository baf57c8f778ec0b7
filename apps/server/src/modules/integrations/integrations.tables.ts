import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { applications } from "../application/application.tables.ts";
import { organizations } from "../organization/organization.tables.ts";
import { users } from "../users/users.tables.ts";

/** An endpoint told about the organization's events (or one app's): signed JSON or a chat message. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Null: every app of the organization. */
    applicationId: bigint("application_id", { mode: "number" }).references(() => applications.id, {
      onDelete: "cascade",
    }),
    /** Chat URLs carry their credential in the path, so every URL is stored sealed. */
    urlSealed: text("url_sealed").notNull(),
    /** standard, slack, teams, discord. */
    format: text("format").notNull(),
    events: text("events").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    description: text("description").notNull().default(""),
    /** The Standard Webhooks signing secret (whsec_…), sealed. */
    secretSealed: text("secret_sealed").notNull(),
    disabledReason: text("disabled_reason").notNull().default(""),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("webhooks_org_app_idx").on(table.organizationId, table.applicationId)],
);

/**
 * One message to one endpoint and its attempts so far: a webhook's delivery, or a chat message
 * to an app's chat channel (`webhook_id` null). The row is the source of truth; jobs only wake it.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    webhookId: bigint("webhook_id", { mode: "number" }).references(() => webhooks.id, {
      onDelete: "cascade",
    }),
    /** The app whose chat channel receives it (chat messages), or the app the event is about. */
    applicationId: bigint("application_id", { mode: "number" }).references(() => applications.id, {
      onDelete: "cascade",
    }),
    /** webhook or app-chat. */
    target: text("target").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** `{event}:{endpoint}` for deliveries made from an event: a retried fan-out makes no second row. */
    dedupeKey: text("dedupe_key"),
    payload: jsonb("payload").notNull(),
    /** pending, succeeded, failed. */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /** Set while a process is sending it; an attempt whose process died is taken again after this. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    responseStatus: integer("response_status"),
    responseBody: text("response_body").notNull().default(""),
    durationMs: integer("duration_ms"),
    error: text("error").notNull().default(""),
    test: boolean("test").notNull().default(false),
    redeliveryOf: bigint("redelivery_of", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("webhook_deliveries_dedupe_key").on(table.dedupeKey),
    index("webhook_deliveries_webhook_idx").on(table.webhookId, table.id.desc()),
    index("webhook_deliveries_app_chat_idx").on(table.applicationId, table.target, table.id.desc()),
    index("webhook_deliveries_due_idx").on(table.status, table.nextAttemptAt),
    index("webhook_deliveries_org_idx").on(table.organizationId),
    index("webhook_deliveries_created_idx").on(table.createdAt),
  ],
);
