import { bigint, index, pgTable, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../users/users.tables.ts";

/**
 * A browser's push subscription. The endpoint and keys are a capability (whoever holds them and
 * the server's key can wake the device), so they are sealed together; the endpoint's SHA-256
 * finds a subscription again when the browser subscribes anew or unsubscribes.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpointHash: text("endpoint_hash").notNull(),
    /** SecretBox-sealed JSON: {endpoint, p256dh, auth}. */
    sealed: text("sealed").notNull(),
    /** The push service's host, shown to tell devices apart. */
    service: text("service").notNull(),
    language: text("language").notNull().default("en"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
    /** Failed sends in a row (the push service was down or refused); reset by a success. */
    failures: smallint("failures").notNull().default(0),
  },
  (table) => [
    uniqueIndex("push_subscriptions_endpoint_key").on(table.endpointHash),
    index("push_subscriptions_user_idx").on(table.userId),
  ],
);

/**
 * The instance's VAPID key pair, one row: every process signs with the same key, since browsers
 * bind each subscription to the public key it was made with. The private key is sealed.
 */
export const pushServerKeys = pgTable("push_server_keys", {
  id: smallint("id").primaryKey(),
  publicKey: text("public_key").notNull(),
  sealedPrivateKey: text("sealed_private_key").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Domain events already turned into pushes, so a retried event pushes nothing twice. */
export const pushHandledEvents = pgTable(
  "push_handled_events",
  {
    eventId: text("event_id").primaryKey(),
    handledAt: timestamp("handled_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("push_handled_events_handled_idx").on(table.handledAt)],
);
