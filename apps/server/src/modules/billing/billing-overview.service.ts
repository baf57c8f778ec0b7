/** Reads an organization's billing as owners and admins see it (`GET /api/billing/`). */
import type { BillingOverview, OrganizationSelector } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Caller } from "../organization/membership.service.ts";
import type { OrganizationPlanService } from "../organization/organization-plan.service.ts";
import type { PlanRow, PlanService } from "../plan/plan.service.ts";
import {
  type CustomerRow,
  findCustomer,
  findLiveSubscription,
  type SubscriptionRow,
} from "./billing.repo.ts";
import type { BillingAccess } from "./billing-access.ts";
import { cardOf } from "./billing-card.service.ts";
import type { StripeClient } from "./stripe-client.ts";
import { major } from "./stripe-objects.ts";

const planRef = (plan: PlanRow) => ({ id: plan.id, code: plan.code, title: plan.title });

export class BillingOverviewService {
  constructor(
    private readonly deps: {
      db: Database;
      /** Null where Stripe is not configured: the overview then says billing is off. */
      stripe: StripeClient | null;
      /** Handed to the browser with the overview, so Stripe.js can start before a card set-up. */
      publishableKey: string | null;
      access: BillingAccess;
      plans: PlanService;
      organizationPlans: OrganizationPlanService;
    },
  ) {}

  async get(caller: Caller, selector: OrganizationSelector): Promise<BillingOverview> {
    const organizationId = await this.deps.access.organizationOf(caller, selector, "billing:read");
    return this.read(organizationId);
  }

  async read(organizationId: number): Promise<BillingOverview> {
    const { stripe, publishableKey } = this.deps;
    if (!stripe || !publishableKey) return { enabled: false };
    const [found, customer, live] = await Promise.all([
      this.deps.organizationPlans.findInInstance(organizationId),
      findCustomer(this.deps.db, organizationId),
      findLiveSubscription(this.deps.db, organizationId),
    ]);
    if (!found) throw AppError.notFound();
    const plans = await this.deps.plans.findPlans([
      found.organization.planId,
      ...(live?.planId ? [live.planId] : []),
    ]);
    const plan = plans.get(found.organization.planId);
    if (!plan) throw AppError.notFound();
    const subscribed = live?.planId ? plans.get(live.planId) : undefined;
    return {
      enabled: true,
      plan: planRef(plan),
      subscribed_plan: subscribed ? planRef(subscribed) : null,
      interval: live?.interval === "month" || live?.interval === "year" ? live.interval : null,
      status: live?.status ?? null,
      current_period_end: live?.currentPeriodEnd?.toISOString() ?? null,
      cancel_at_period_end: live?.cancelAtPeriodEnd ?? false,
      grace_ends_at: customer?.graceEndsAt?.toISOString() ?? null,
      card: cardOf(customer),
      next_charge: await this.nextCharge(customer, live),
      publishable_key: publishableKey,
    };
  }

  /**
   * Stripe's preview of the subscription's next invoice. The overview is still worth showing
   * when Stripe cannot be asked, so a failure leaves the next charge out.
   */
  private async nextCharge(customer: CustomerRow | null, live: SubscriptionRow | null) {
    const { stripe } = this.deps;
    if (!stripe || !customer || !live || live.cancelAtPeriodEnd || live.status === "incomplete") return null;
    try {
      const preview = await stripe.invoices.createPreview({
        customer: customer.customerId,
        subscription: live.id,
      });
      const date = preview.next_payment_attempt ?? preview.period_end;
      return {
        amount: major(preview.amount_due),
        currency: preview.currency,
        date: new Date(date * 1000).toISOString(),
      };
    } catch {
      return null;
    }
  }
}
