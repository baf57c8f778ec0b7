/**
 * Applies Stripe's events (`POST /api/billing/stripe-webhook/`): each verified against the
 * webhook secret, applied once (its id kept in `billing_events`, in the same transaction as
 * what it changes), and never over newer state (BillingStandingService, saveInvoice).
 */
import type Stripe from "stripe";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import { findCustomerByStripeId, insertEvent, saveInvoice } from "./billing.repo.ts";
import type { BillingStandingService } from "./billing-standing.service.ts";
import { idOf, type StripeClient } from "./stripe-client.ts";
import { readInvoice, subscriptionOfInvoice } from "./stripe-objects.ts";

const subscriptionEvents = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
]);

const invoiceEvents = new Set([
  "invoice.created",
  "invoice.finalized",
  "invoice.updated",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "invoice.voided",
  "invoice.marked_uncollectible",
]);

export class BillingWebhookService {
  constructor(
    private readonly deps: {
      db: Database;
      stripe: StripeClient;
      webhookSecret: string;
      standing: BillingStandingService;
    },
  ) {}

  /** Verifies and applies one delivery; a bad signature answers 400, a failure 500 (Stripe retries). */
  async receive(payload: string | Buffer, signature: string | undefined): Promise<void> {
    let event: Stripe.Event;
    try {
      event = this.deps.stripe.webhooks.constructEvent(payload, signature ?? "", this.deps.webhookSecret);
    } catch {
      throw AppError.badRequest("The Stripe signature of this request is not valid.");
    }
    await this.deps.db.transaction(async (tx) => {
      if (!(await insertEvent(tx, event.id, event.type))) return;
      await this.apply(event, tx);
    });
  }

  private async apply(event: Stripe.Event, tx: Database): Promise<void> {
    if (subscriptionEvents.has(event.type)) {
      const subscription = event.data.object as Stripe.Subscription;
      await this.deps.standing.applySubscription(subscription, event.created, null, tx);
      return;
    }
    if (!invoiceEvents.has(event.type)) return;
    const invoice = event.data.object as Stripe.Invoice;
    const customer = await findCustomerByStripeId(tx, idOf(invoice.customer) ?? "");
    if (!customer || !invoice.id) return;
    const { organizationId } = customer;
    // Drafts are not invoices yet: the history starts when one is finalized.
    if (invoice.status !== "draft")
      await saveInvoice(tx, readInvoice(invoice, organizationId, event.created));
    const subscriptionId = subscriptionOfInvoice(invoice);
    if (!subscriptionId) return;
    if (event.type === "invoice.paid") {
      await this.deps.standing.paymentSucceeded(organizationId, subscriptionId, tx);
    } else if (event.type === "invoice.payment_failed") {
      await this.deps.standing.paymentFailed(organizationId, subscriptionId, event.created, tx);
    }
  }
}
