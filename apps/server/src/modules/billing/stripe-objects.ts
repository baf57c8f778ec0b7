import type Stripe from "stripe";
import type { InvoiceRow, SubscriptionRow } from "./billing.repo.ts";
import { fromUnix, idOf } from "./stripe-client.ts";
import { parseLookupKey } from "./stripe-prices.ts";

/** A subscription as we keep it, before its plan is looked up by code. */
export interface SubscriptionState extends Omit<SubscriptionRow, "planId" | "organizationId"> {
  customerId: string;
  planCode: string | null;
}

/** Reads what we keep of a Stripe subscription (its first item carries the plan's price). */
export function readSubscription(subscription: Stripe.Subscription, eventAt: number): SubscriptionState {
  const item = subscription.items.data[0];
  const named = parseLookupKey(item?.price.lookup_key);
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? "",
    planCode: named?.planCode ?? null,
    interval: named?.interval ?? item?.price.recurring?.interval ?? null,
    itemId: item?.id ?? null,
    priceId: item?.price.id ?? null,
    status: subscription.status,
    currentPeriodEnd: item ? fromUnix(item.current_period_end) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    createdAt: fromUnix(subscription.created),
    eventAt,
  };
}

/** The subscription an invoice bills, if any. */
export function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription ?? null);
}

export function readInvoice(invoice: Stripe.Invoice, organizationId: number, eventAt: number): InvoiceRow {
  return {
    id: invoice.id,
    organizationId,
    subscriptionId: subscriptionOfInvoice(invoice),
    number: invoice.number,
    status: invoice.status ?? "draft",
    amountCents: invoice.amount_due,
    currency: invoice.currency,
    periodStart: fromUnix(invoice.period_start),
    periodEnd: fromUnix(invoice.period_end),
    createdAt: fromUnix(invoice.created),
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
    invoicePdf: invoice.invoice_pdf ?? null,
    eventAt,
  };
}

/**
 * When Stripe answered, by its own clock (the reply's Date header): the state in a synchronous
 * answer is as of then, comparable with events' `created`. Our clock only when the header is missing.
 */
export function answeredAt(response: { lastResponse?: { headers?: Record<string, string> } }): number {
  const date = Date.parse(response.lastResponse?.headers?.date ?? "");
  return Math.floor((Number.isNaN(date) ? Date.now() : date) / 1000);
}

/** Cents to the currency's major unit. */
export const major = (cents: number) => Math.round(cents) / 100;
