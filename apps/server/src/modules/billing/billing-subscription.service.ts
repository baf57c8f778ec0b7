/**
 * Owns what owners do with their subscription: subscribe, change plan or interval (with
 * proration), cancel at the period's end and resume, and what a change would cost. The plan in
 * force follows Stripe's confirmation only (BillingStandingService).
 */
import type {
  BillingInterval,
  BillingOverview,
  MonthPrice,
  OrganizationSelector,
  SubscriptionInput,
  SubscriptionResult,
} from "@tarmac/contracts";
import type Stripe from "stripe";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Caller } from "../organization/membership.service.ts";
import type { PlanRow, PlanService } from "../plan/plan.service.ts";
import { findCustomer, findLiveSubscription, type SubscriptionRow } from "./billing.repo.ts";
import type { BillingAccess } from "./billing-access.ts";
import type { BillingCardService } from "./billing-card.service.ts";
import type { BillingOverviewService } from "./billing-overview.service.ts";
import type { BillingStandingService } from "./billing-standing.service.ts";
import type { PlanFit } from "./plan-fit.ts";
import { callStripe, idOf, type StripeClient } from "./stripe-client.ts";
import { answeredAt, major } from "./stripe-objects.ts";
import type { PlanPrices } from "./stripe-prices.ts";

export interface BillingSubscriptionDeps {
  db: Database;
  stripe: StripeClient;
  access: BillingAccess;
  plans: PlanService;
  prices: PlanPrices;
  cards: BillingCardService;
  standing: BillingStandingService;
  overview: BillingOverviewService;
  fit: PlanFit;
  instance: string;
}

const monthly = (cents: number, interval: string | null) => major(interval === "year" ? cents / 12 : cents);

export class BillingSubscriptionService {
  constructor(private readonly deps: BillingSubscriptionDeps) {}

  /** Subscribes the organization, or moves its subscription to the plan and interval asked for. */
  async change(caller: Caller, input: SubscriptionInput, actorUserId: number): Promise<SubscriptionResult> {
    const organizationId = await this.deps.access.organizationOf(
      caller,
      { org: input.org },
      "billing:manage",
    );
    const plan = await this.paidPlan(input.plan);
    const customer = await this.deps.cards.ensureCustomer(organizationId);
    if (!customer.defaultPaymentMethod) throw AppError.badRequest("Add a card before choosing a plan.");
    await this.deps.fit.assertFits(organizationId, plan);
    const price = await this.deps.prices.get(plan.code, input.interval);
    const live = await findLiveSubscription(this.deps.db, organizationId);
    if (live?.priceId === price.id)
      throw AppError.badRequest(`The organization is already on the ${plan.title} plan.`);
    if (live?.status === "incomplete") {
      throw AppError.badRequest("The first payment of the subscription is not complete yet.");
    }
    const { stripe } = this.deps;
    const expand = ["latest_invoice.payments"];
    const subscription = live?.itemId
      ? await callStripe(() =>
          stripe.subscriptions.update(live.id, {
            items: [{ id: live.itemId as string, price: price.id }],
            proration_behavior: "create_prorations",
            payment_behavior: "allow_incomplete",
            expand,
          }),
        )
      : await callStripe(() =>
          stripe.subscriptions.create(
            {
              customer: customer.customerId,
              items: [{ price: price.id }],
              payment_behavior: "allow_incomplete",
              proration_behavior: "create_prorations",
              metadata: { organization_id: String(organizationId) },
              expand,
            },
            // Two clicks (or two processes) make one subscription; a new attempt after the last
            // subscription ended, or with another card or price, is a new request.
            {
              idempotencyKey: `tarmac-${this.deps.instance}-subscribe-${organizationId}-${live?.id ?? "none"}-${customer.defaultPaymentMethod}-${price.id}`,
            },
          ),
        );
    await this.deps.db.transaction((tx) =>
      this.deps.standing.applySubscription(subscription, answeredAt(subscription), actorUserId, tx),
    );
    const secret = await this.pendingPayment(subscription);
    if (secret) return { requires_action: true, client_secret: secret };
    return { requires_action: false, billing: await this.deps.overview.read(organizationId) };
  }

  async cancel(caller: Caller, org: number, actorUserId: number): Promise<BillingOverview> {
    return this.setCancelAtPeriodEnd(caller, org, true, actorUserId);
  }

  async resume(caller: Caller, org: number, actorUserId: number): Promise<BillingOverview> {
    return this.setCancelAtPeriodEnd(caller, org, false, actorUserId);
  }

  /** What the organization pays per month now and on `planId`, with the change's proration. */
  async monthPrice(
    caller: Caller,
    planId: number,
    query: OrganizationSelector & { interval: BillingInterval },
  ): Promise<MonthPrice> {
    const organizationId = await this.deps.access.organizationOf(caller, query, "billing:read");
    const plan = await this.paidPlan(planId);
    const price = await this.deps.prices.get(plan.code, query.interval);
    const [customer, live] = await Promise.all([
      findCustomer(this.deps.db, organizationId),
      findLiveSubscription(this.deps.db, organizationId),
    ]);
    const current = live?.priceId ? await this.currentPrice(live) : 0;
    const base = {
      plan: { id: plan.id, code: plan.code, title: plan.title },
      interval: query.interval,
      currency: price.currency,
      current_monthly: current,
      new_monthly: monthly(price.unitAmount, query.interval),
    };
    if (!customer) {
      return { ...base, proration: 0, next_invoice_total: major(price.unitAmount), next_invoice_date: null };
    }
    const preview = await callStripe(() =>
      this.deps.stripe.invoices.createPreview({
        customer: customer.customerId,
        ...(live?.itemId
          ? {
              subscription: live.id,
              subscription_details: {
                items: [{ id: live.itemId, price: price.id }],
                proration_behavior: "create_prorations",
                proration_date: Math.floor(Date.now() / 1000),
              },
            }
          : { subscription_details: { items: [{ price: price.id }] } }),
      }),
    );
    const proration = preview.lines.data
      .filter((line) => line.parent?.subscription_item_details?.proration)
      .reduce((sum, line) => sum + line.amount, 0);
    const due = preview.next_payment_attempt ?? preview.period_end;
    return {
      ...base,
      proration: major(proration),
      next_invoice_total: major(preview.amount_due),
      next_invoice_date: live ? new Date(due * 1000).toISOString() : null,
    };
  }

  private async setCancelAtPeriodEnd(caller: Caller, org: number, cancel: boolean, actorUserId: number) {
    const organizationId = await this.deps.access.organizationOf(caller, { org }, "billing:manage");
    const live = await findLiveSubscription(this.deps.db, organizationId);
    if (!live) throw AppError.badRequest("The organization has no subscription.");
    const subscription = await callStripe(() =>
      this.deps.stripe.subscriptions.update(live.id, { cancel_at_period_end: cancel }),
    );
    await this.deps.db.transaction((tx) =>
      this.deps.standing.applySubscription(subscription, answeredAt(subscription), actorUserId, tx),
    );
    return this.deps.overview.read(organizationId);
  }

  /** A plan that can be bought: one with a price (free and unlimited are not sold). */
  private async paidPlan(key: number | string): Promise<PlanRow> {
    const plan =
      typeof key === "number"
        ? ((await this.deps.plans.findPlans([key])).get(key) ?? null)
        : await this.deps.plans.findByCode(key);
    if (!plan) throw AppError.validation({ plan: ["No plan with this id or code."] });
    if (plan.priceCents <= 0) throw AppError.validation({ plan: [`The ${plan.title} plan is not sold.`] });
    return plan;
  }

  private async currentPrice(live: SubscriptionRow): Promise<number> {
    const plan = live.planId ? (await this.deps.plans.findPlans([live.planId])).get(live.planId) : null;
    if (!plan || (live.interval !== "month" && live.interval !== "year")) return 0;
    const price = await this.deps.prices.get(plan.code, live.interval);
    return monthly(price.unitAmount, live.interval);
  }

  /**
   * The client secret of a payment the card's bank wants confirmed (3-D Secure) before the
   * subscription's invoice is paid; a declined card answers Stripe's reason.
   */
  private async pendingPayment(subscription: Stripe.Subscription): Promise<string | null> {
    const invoice = subscription.latest_invoice;
    if (!invoice || typeof invoice === "string" || invoice.status !== "open") return null;
    const paymentIntentId = idOf(invoice.payments?.data[0]?.payment.payment_intent ?? null);
    if (!paymentIntentId) return null;
    const intent = await callStripe(() => this.deps.stripe.paymentIntents.retrieve(paymentIntentId));
    if (intent.status === "requires_action" && intent.client_secret) return intent.client_secret;
    if (intent.status === "requires_payment_method") {
      throw AppError.badRequest(intent.last_payment_error?.message ?? "The card was declined.");
    }
    return null;
  }
}
