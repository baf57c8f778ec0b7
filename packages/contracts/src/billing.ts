import { z } from "zod";
import { organizationSelector, pageOf, pageQuery } from "./common.ts";

/**
 * Hosted billing through Stripe. Amounts are in the currency's major units (29.5 = $29.50),
 * times ISO-8601 UTC. Card details are a summary only: no secret ever leaves the server except
 * a SetupIntent's client secret, which the browser needs to confirm the card.
 */
export const billingIntervals = ["month", "year"] as const;
export type BillingInterval = (typeof billingIntervals)[number];

/** `GET /api/stripe-customer/?subdomain=`: starts saving a card (owners). */
export const stripeCustomerQuery = z.object({ subdomain: z.string().trim().min(1).max(63) });

export const cardSetup = z
  .object({
    /** The SetupIntent's client secret, for Stripe.js `confirmCardSetup`. */
    client_secret: z.string(),
    /** The publishable key Stripe.js loads with (pk_test_… on test instances). */
    publishable_key: z.string(),
  })
  .meta({ id: "CardSetup" });
export type CardSetup = z.infer<typeof cardSetup>;

/**
 * `POST /api/stripe-customer/` (spec §3 payment customer request): `token` is the PaymentMethod
 * id (pm_…) the SetupIntent confirmed, `pi_id` that SetupIntent's id (seti_…).
 */
export const stripeCustomerInput = z.object({
  token: z
    .string()
    .trim()
    .regex(/^pm_\w+$/, "Must be a payment method id (pm_…)."),
  subdomain: z.string().trim().min(1).max(63),
  pi_id: z
    .string()
    .trim()
    .regex(/^seti_\w+$/, "Must be a SetupIntent id (seti_…).")
    .optional(),
});
export type StripeCustomerInput = z.infer<typeof stripeCustomerInput>;

/** The saved card, as Stripe describes it (never its number). */
export const cardSummary = z
  .object({
    brand: z.string(),
    last4: z.string(),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
    funding: z.string(),
  })
  .meta({ id: "CardSummary" });
export type CardSummary = z.infer<typeof cardSummary>;

export const savedCard = z.object({ card: cardSummary }).meta({ id: "SavedCard" });

export const billingQuery = organizationSelector;

const planRef = z.object({ id: z.number().int(), code: z.string(), title: z.string() });

/** `GET /api/billing/?org=`: the organization's subscription, or `{enabled: false}` without Stripe. */
export const billingOverview = z
  .union([
    z.object({ enabled: z.literal(false) }),
    z.object({
      enabled: z.literal(true),
      /** The plan whose limits are in force now. */
      plan: planRef,
      /** The plan paid for, when a subscription is live (it differs from `plan` after a grace period ran out). */
      subscribed_plan: planRef.nullable(),
      interval: z.enum(billingIntervals).nullable(),
      /** Stripe's subscription status (active, past_due, incomplete, ...); null without a subscription. */
      status: z.string().nullable(),
      current_period_end: z.string().nullable(),
      cancel_at_period_end: z.boolean(),
      /** When a failed payment's grace period ends (the plan then falls back to the free plan's limits). */
      grace_ends_at: z.string().nullable(),
      card: cardSummary.nullable(),
      next_charge: z.object({ amount: z.number(), currency: z.string(), date: z.string() }).nullable(),
      /** The key Stripe.js loads with, for the card form and a payment's 3-D Secure check. */
      publishable_key: z.string(),
    }),
  ])
  .meta({ id: "BillingOverview" });
export type BillingOverview = z.infer<typeof billingOverview>;

/** A plan by id (as `/api/tariffs/` lists it) or by code ("team"). */
const planKey = z.union([z.number().int().positive(), z.string().trim().min(1).max(50)]);

/** `POST /api/billing/subscription/`: subscribe, or move the subscription to another plan or interval. */
export const subscriptionInput = z.object({
  org: z.number().int().positive(),
  plan: planKey,
  interval: z.enum(billingIntervals).default("month"),
});
export type SubscriptionInput = z.infer<typeof subscriptionInput>;

/** `POST /api/billing/subscription/cancel/` and `.../resume/`. */
export const subscriptionOrgInput = z.object({ org: z.number().int().positive() });

/**
 * The answer to a subscription change: the overview once Stripe confirmed it, or, when the card's
 * bank asks for 3-D Secure, the PaymentIntent's client secret for Stripe.js `confirmCardPayment`
 * (the plan changes when Stripe reports the payment).
 */
export const subscriptionResult = z
  .union([
    z.object({ requires_action: z.literal(true), client_secret: z.string() }),
    z.object({ requires_action: z.literal(false), billing: billingOverview }),
  ])
  .meta({ id: "SubscriptionResult" });
export type SubscriptionResult = z.infer<typeof subscriptionResult>;

/** `GET /api/month_price/{planId}/?org=&interval=`. */
export const monthPriceParams = z.object({ id: z.coerce.number().int().positive() });
export const monthPriceQuery = organizationSelector.extend({
  interval: z.enum(billingIntervals).default("month"),
});

/** What the organization pays per month now and on the plan asked about, with the change's proration. */
export const monthPrice = z
  .object({
    plan: planRef,
    interval: z.enum(billingIntervals),
    currency: z.string(),
    /** Per month on the current subscription (a yearly price divided by 12); 0 without one. */
    current_monthly: z.number(),
    /** Per month on the plan asked about, at `interval`. */
    new_monthly: z.number(),
    /** The change's prorations (credit for unused time, charge for the rest of the period). */
    proration: z.number(),
    /** The next invoice's total after the change, and when it is due. */
    next_invoice_total: z.number(),
    next_invoice_date: z.string().nullable(),
  })
  .meta({ id: "MonthPrice" });
export type MonthPrice = z.infer<typeof monthPrice>;

/** One invoice, as Stripe's webhooks reported it. */
export const invoice = z
  .object({
    id: z.string(),
    number: z.string().nullable(),
    status: z.string(),
    amount: z.number(),
    currency: z.string(),
    period_start: z.string(),
    period_end: z.string(),
    created: z.string(),
    hosted_invoice_url: z.string().nullable(),
  })
  .meta({ id: "Invoice" });
export type Invoice = z.infer<typeof invoice>;

export const invoiceWithPdf = invoice
  .extend({ invoice_pdf: z.string().nullable() })
  .meta({ id: "InvoiceWithPdf" });
export type InvoiceWithPdf = z.infer<typeof invoiceWithPdf>;

export const invoicePage = pageOf(invoice);
export const invoiceWithPdfPage = pageOf(invoiceWithPdf);
export const invoiceQuery = organizationSelector.extend(pageQuery.shape);
export const invoiceIdParams = z.object({ id: z.string().trim().min(1).max(255) });

export const webhookReceived = z.object({ received: z.literal(true) });
