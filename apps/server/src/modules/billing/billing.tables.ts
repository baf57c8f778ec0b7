import { bigint, boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "../organization/organization.tables.ts";
import { plans } from "../plan/plan.tables.ts";

/** An organization's Stripe customer, its default card (a summary) and its payment grace period. */
export const billingCustomers = pgTable("billing_customers", {
  organizationId: bigint("organization_id", { mode: "number" })
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  customerId: text("customer_id").notNull().unique(),
  defaultPaymentMethod: text("default_payment_method"),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  cardExpMonth: integer("card_exp_month"),
  cardExpYear: integer("card_exp_year"),
  cardFunding: text("card_funding"),
  /** Set while a failed payment's grace period runs: when it ends. */
  graceEndsAt: timestamp("grace_ends_at", { withTimezone: true }),
  /** The grace period ran out: the organization is on the free plan's limits until a payment. */
  lapsed: boolean("lapsed").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Subscriptions as Stripe last reported them, one row each. `eventAt` is the `created` time of
 * the newest event (or confirmed answer) applied, so an older event never overwrites newer state.
 */
export const billingSubscriptions = pgTable(
  "billing_subscriptions",
  {
    id: text("id").primaryKey(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Null when the price is not one of ours (no `tarmac_<plan>_<interval>` lookup key). */
    planId: bigint("plan_id", { mode: "number" }).references(() => plans.id),
    interval: text("interval"),
    itemId: text("item_id"),
    priceId: text("price_id"),
    status: text("status").notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** Stripe's `created` of the subscription: the newest live one is the organization's. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** Unix seconds of the newest state applied. */
    eventAt: bigint("event_at", { mode: "number" }).notNull(),
  },
  (table) => [index("billing_subscriptions_org_idx").on(table.organizationId, table.createdAt)],
);

/** Stripe event ids already applied: each event is applied once however often it is delivered. */
export const billingEvents = pgTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Invoices as Stripe's webhooks reported them, for the invoice history. */
export const billingInvoices = pgTable(
  "billing_invoices",
  {
    id: text("id").primaryKey(),
    organizationId: bigint("organization_id", { mode: "number" })
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id"),
    number: text("number"),
    status: text("status").notNull(),
    /** In the currency's smallest unit (cents). */
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    hostedInvoiceUrl: text("hosted_invoice_url"),
    invoicePdf: text("invoice_pdf"),
    /** Unix seconds of the newest event applied to this invoice. */
    eventAt: bigint("event_at", { mode: "number" }).notNull(),
  },
  (table) => [index("billing_invoices_org_idx").on(table.organizationId, table.createdAt)],
);
