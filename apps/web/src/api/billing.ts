// Hosted billing: the overview, card set-up, subscription changes, prices and invoices.
import type {
  BillingInterval,
  BillingOverview,
  CardSetup,
  CardSummary,
  InvoiceWithPdf,
  MonthPrice,
  Page,
  StripeCustomerInput,
  SubscriptionResult,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { BillingInterval, BillingOverview, CardSummary, InvoiceWithPdf, MonthPrice };
export type EnabledBilling = Extract<BillingOverview, { enabled: true }>;

export const billingKeys = {
  all: (orgId: number) => ["billing", orgId] as const,
  overview: (orgId: number) => ["billing", orgId, "overview"] as const,
  monthPrice: (orgId: number, planId: number, interval: BillingInterval) =>
    ["billing", orgId, "month-price", planId, interval] as const,
  invoices: (orgId: number, page: number) => ["billing", orgId, "invoices", page] as const,
};

/** Invoices a page holds; the server's default page size for the invoice history. */
export const INVOICE_PAGE_SIZE = 10;

export function fetchBillingOverview(orgId: number) {
  return api.get<BillingOverview>("/api/billing/", { query: { org: orgId } });
}

export function fetchMonthPrice(orgId: number, planId: number, interval: BillingInterval) {
  return api.get<MonthPrice>(`/api/month_price/${planId}/`, { query: { org: orgId, interval } });
}

/** One page of the invoice history, newest first; pages count from 1. */
export function fetchInvoices(orgId: number, page: number) {
  return api.get<Page<InvoiceWithPdf>>("/api/invoice-history-w-pdf/", { query: { org: orgId, page } });
}

/** Starts saving a card: a SetupIntent's client secret for Stripe.js. */
export function startCardSetup(subdomain: string) {
  return api.get<CardSetup>("/api/stripe-customer/", { query: { subdomain } });
}

export function saveCard(input: StripeCustomerInput) {
  return api.post<{ card: CardSummary }>("/api/stripe-customer/", input);
}

export function changeSubscription(orgId: number, planId: number, interval: BillingInterval) {
  return api.post<SubscriptionResult>("/api/billing/subscription/", { org: orgId, plan: planId, interval });
}

export function cancelSubscription(orgId: number) {
  return api.post<BillingOverview>("/api/billing/subscription/cancel/", { org: orgId });
}

export function resumeSubscription(orgId: number) {
  return api.post<BillingOverview>("/api/billing/subscription/resume/", { org: orgId });
}
