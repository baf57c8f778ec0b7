/**
 * Owns what an organization's billing state means for its plan: the subscriptions Stripe
 * reported, the grace period of a failed payment (mails to the owner, then the free plan's
 * limits), and the plan in force, changed only through OrganizationPlanService.setPlan with the
 * source "billing". Every change happens in the caller's transaction, with its jobs and mails.
 */
import type Stripe from "stripe";
import type { Database } from "../../platform/db/client.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { MailContent } from "../../platform/mail/mail-content.ts";
import type { Mail } from "../../platform/mail/mail-queue.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { OrganizationPlanService } from "../organization/organization-plan.service.ts";
import type { PlanService } from "../plan/plan.service.ts";
import type { BillingJobs, GraceRef } from "./billing.jobs.ts";
import {
  type CustomerRow,
  findCustomerByStripeId,
  findLiveSubscription,
  lockCustomer,
  type SubscriptionRow,
  saveSubscription,
  updateCustomer,
} from "./billing.repo.ts";
import { type GraceMailFacts, graceEndingMail, lapsedMail, paymentFailedMail } from "./billing-mail.ts";
import { readSubscription } from "./stripe-objects.ts";

const dayMs = 24 * 3600 * 1000;
export const gracePeriodDays = 7;
const reminderDaysBeforeEnd = 2;
const freePlanCode = "free";

export interface BillingStandingDeps {
  db: Database;
  plans: PlanService;
  organizationPlans: OrganizationPlanService;
  organizations: OrganizationService;
  membership: MembershipService;
  mail: Mail;
  jobs: JobQueue;
  billingJobs: () => BillingJobs;
  publicUrl: string;
}

export class BillingStandingService {
  constructor(private readonly deps: BillingStandingDeps) {}

  /**
   * Keeps the subscription's state unless newer state is kept, then puts the organization on the
   * plan that state calls for. `eventAt`: Stripe's time of the state (an event's `created`).
   * Returns the organization, or null for a customer that is not one of ours.
   */
  async applySubscription(
    subscription: Stripe.Subscription,
    eventAt: number,
    actorUserId: number | null,
    tx: Database,
  ): Promise<number | null> {
    const { customerId, planCode, ...state } = readSubscription(subscription, eventAt);
    const customer = await findCustomerByStripeId(tx, customerId);
    if (!customer) return null;
    const plan = planCode ? await this.deps.plans.findByCode(planCode, tx) : null;
    const written = await saveSubscription(tx, {
      ...state,
      organizationId: customer.organizationId,
      planId: plan?.id ?? null,
    });
    if (written) await this.settle(customer.organizationId, eventAt, actorUserId, tx);
    return customer.organizationId;
  }

  /** A paid invoice of the live subscription ends any grace period and restores its plan. */
  async paymentSucceeded(organizationId: number, subscriptionId: string, tx: Database): Promise<void> {
    const customer = await lockCustomer(tx, organizationId);
    const live = await findLiveSubscription(tx, organizationId);
    if (!customer || live?.id !== subscriptionId) return;
    await updateCustomer(tx, organizationId, { graceEndsAt: null, lapsed: false });
    await this.putOnPlan(organizationId, live, { ...customer, graceEndsAt: null, lapsed: false }, null, tx);
  }

  /** A failed renewal of the live subscription starts the grace period (once per failure streak). */
  async paymentFailed(
    organizationId: number,
    subscriptionId: string,
    at: number,
    tx: Database,
  ): Promise<void> {
    const live = await findLiveSubscription(tx, organizationId);
    // A first payment that fails leaves the subscription incomplete: nothing was granted to take back.
    if (live?.id !== subscriptionId || live.status === "incomplete") return;
    await this.startGrace(organizationId, live, at, tx);
  }

  async remindGrace(grace: GraceRef): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const customer = await lockCustomer(tx, grace.organizationId);
      if (customer?.graceEndsAt?.toISOString() !== grace.graceEndsAt) return;
      const live = await findLiveSubscription(tx, grace.organizationId);
      await this.mailOwner(grace.organizationId, live, customer.graceEndsAt, graceEndingMail, tx);
    });
  }

  /** The grace period ran out without a payment: the free plan's limits, nothing deleted. */
  async endGrace(grace: GraceRef): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const customer = await lockCustomer(tx, grace.organizationId);
      if (customer?.graceEndsAt?.toISOString() !== grace.graceEndsAt) return;
      await updateCustomer(tx, grace.organizationId, { graceEndsAt: null, lapsed: true });
      const live = await findLiveSubscription(tx, grace.organizationId);
      await this.putOnPlan(
        grace.organizationId,
        live,
        { ...customer, graceEndsAt: null, lapsed: true },
        null,
        tx,
      );
      await this.mailOwner(grace.organizationId, live, customer.graceEndsAt, lapsedMail, tx);
    });
  }

  /** After a subscription changed: grace periods follow its status, then the plan follows both. */
  private async settle(organizationId: number, at: number, actorUserId: number | null, tx: Database) {
    let customer = await lockCustomer(tx, organizationId);
    if (!customer) return;
    const live = await findLiveSubscription(tx, organizationId);
    const paid = live && (live.status === "active" || live.status === "trialing");
    if ((paid || !live) && (customer.graceEndsAt || customer.lapsed)) {
      await updateCustomer(tx, organizationId, { graceEndsAt: null, lapsed: false });
      customer = { ...customer, graceEndsAt: null, lapsed: false };
    }
    if (live?.status === "past_due")
      customer = (await this.startGrace(organizationId, live, at, tx)) ?? customer;
    await this.putOnPlan(organizationId, live, customer, actorUserId, tx);
  }

  private async startGrace(organizationId: number, live: SubscriptionRow, at: number, tx: Database) {
    const customer = await lockCustomer(tx, organizationId);
    if (!customer || customer.graceEndsAt || customer.lapsed) return customer;
    const graceEndsAt = new Date(at * 1000 + gracePeriodDays * dayMs);
    await updateCustomer(tx, organizationId, { graceEndsAt });
    const ref = { organizationId, graceEndsAt: graceEndsAt.toISOString() };
    const secondsUntil = (time: number) => Math.max(0, Math.ceil((time - Date.now()) / 1000));
    const jobs = this.deps.billingJobs();
    await this.deps.jobs.send(jobs.graceReminder, ref, {
      tx,
      startAfterSeconds: secondsUntil(graceEndsAt.getTime() - reminderDaysBeforeEnd * dayMs),
    });
    await this.deps.jobs.send(jobs.graceEnd, ref, {
      tx,
      startAfterSeconds: secondsUntil(graceEndsAt.getTime()),
    });
    await this.mailOwner(organizationId, live, graceEndsAt, paymentFailedMail, tx);
    return { ...customer, graceEndsAt };
  }

  /**
   * The plan the billing state calls for: the subscription's while it is paid for or in its grace
   * period; the free plan once the grace period ran out, when the subscription is unpaid or
   * paused, or when none is left. An incomplete first payment (3-D Secure under way) changes nothing.
   */
  private async putOnPlan(
    organizationId: number,
    live: SubscriptionRow | null,
    customer: CustomerRow,
    actorUserId: number | null,
    tx: Database,
  ) {
    const status = live?.status;
    if (status === "incomplete" || (live && live.planId === null)) return;
    const keepsPlan =
      live && (status === "active" || status === "trialing" || (status === "past_due" && !customer.lapsed));
    const planId = keepsPlan ? live.planId : (await this.deps.plans.findByCode(freePlanCode, tx))?.id;
    if (!planId) return;
    await this.deps.organizationPlans.setPlan(organizationId, planId, { actorUserId, source: "billing" }, tx);
  }

  private async mailOwner(
    organizationId: number,
    live: SubscriptionRow | null,
    graceEndsAt: Date,
    compose: (facts: GraceMailFacts) => MailContent,
    tx: Database,
  ) {
    const owner = await this.deps.membership.findOwner(organizationId, tx);
    if (!owner) return;
    const plan = live?.planId ? await this.deps.plans.getPlan(live.planId, tx) : null;
    const facts: GraceMailFacts = {
      organization: { id: organizationId, name: await this.deps.organizations.getTitle(organizationId, tx) },
      plan: plan?.title ?? "paid",
      graceEndsAt,
      billingUrl: `${this.deps.publicUrl}/dashboard`,
    };
    await this.deps.mail.queue({ to: owner.email, ...compose(facts) }, { tx });
  }
}
