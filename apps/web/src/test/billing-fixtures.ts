// Answers shaped like the hosted billing API, for tests.
import type { EnabledBilling, InvoiceWithPdf, MonthPrice } from "../api/billing.ts";

/** Organization 7 on the Team plan, paid monthly by a Visa card, renewing on 1 April 2026. */
export function makeBilling(overrides: Partial<EnabledBilling> = {}): EnabledBilling {
  const team = { id: 2, code: "team", title: "Team" };
  return {
    enabled: true,
    plan: team,
    subscribed_plan: team,
    interval: "month",
    status: "active",
    current_period_end: "2026-04-01T00:00:00Z",
    cancel_at_period_end: false,
    grace_ends_at: null,
    card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2031, funding: "credit" },
    next_charge: { amount: 29, currency: "usd", date: "2026-04-01T00:00:00Z" },
    publishable_key: "pk_test_tarmac",
    ...overrides,
  };
}

export function makeMonthPrice(overrides: Partial<MonthPrice> = {}): MonthPrice {
  return {
    plan: { id: 3, code: "business", title: "Business" },
    interval: "month",
    currency: "usd",
    current_monthly: 29,
    new_monthly: 99,
    proration: 35,
    next_invoice_total: 134,
    next_invoice_date: "2026-04-01T00:00:00Z",
    ...overrides,
  };
}

export function makeInvoice(overrides: Partial<InvoiceWithPdf> = {}): InvoiceWithPdf {
  return {
    id: "in_1",
    number: "TARMAC-1",
    status: "paid",
    amount: 29,
    currency: "usd",
    period_start: "2026-03-01T00:00:00Z",
    period_end: "2026-04-01T00:00:00Z",
    created: "2026-03-01T00:00:00Z",
    hosted_invoice_url: "https://invoice.stripe.test/in_1",
    invoice_pdf: "https://invoice.stripe.test/in_1/pdf",
    ...overrides,
  };
}
