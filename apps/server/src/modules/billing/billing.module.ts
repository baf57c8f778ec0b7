import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { PlanServices } from "../plan/plan.module.ts";
import { type BillingJobs, createBillingJobs } from "./billing.jobs.ts";
import { type HostedBilling, registerBillingRoutes } from "./billing.routes.ts";
import { BillingAccess } from "./billing-access.ts";
import { BillingCardService } from "./billing-card.service.ts";
import { registerInvoiceRoutes } from "./billing-invoice.routes.ts";
import { BillingInvoiceService } from "./billing-invoice.service.ts";
import { BillingOverviewService } from "./billing-overview.service.ts";
import { BillingStandingService } from "./billing-standing.service.ts";
import { BillingSubscriptionService } from "./billing-subscription.service.ts";
import { registerBillingWebhookRoute } from "./billing-webhook.routes.ts";
import { BillingWebhookService } from "./billing-webhook.service.ts";
import { PlanFit } from "./plan-fit.ts";
import { createStripeClient } from "./stripe-client.ts";
import { PlanPrices } from "./stripe-prices.ts";

/** Hosted billing through Stripe: cards, subscriptions, webhooks, invoices, and the plan they pay for. */
export function createBillingModule(platform: Platform, deps: OrganizationServices & PlanServices) {
  const { db } = platform.database;
  const { config } = platform;
  const stripe = createStripeClient(config);
  const access = new BillingAccess(deps.membership);
  const instance = new URL(config.PUBLIC_URL).host;
  let jobs: BillingJobs | null = null;
  const standing = new BillingStandingService({
    db,
    plans: deps.plans,
    organizationPlans: deps.organizationPlans,
    organizations: deps.organizations,
    membership: deps.membership,
    mail: platform.mail,
    jobs: platform.jobs,
    billingJobs: () => jobs as BillingJobs,
    publicUrl: config.PUBLIC_URL,
  });
  jobs = createBillingJobs({
    remind: (grace) => standing.remindGrace(grace),
    end: (grace) => standing.endGrace(grace),
  });
  const overview = new BillingOverviewService({
    db,
    stripe,
    publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
    access,
    plans: deps.plans,
    organizationPlans: deps.organizationPlans,
  });
  const invoices = new BillingInvoiceService({ db, access });
  let hosted: HostedBilling | null = null;
  let webhooks: BillingWebhookService | null = null;
  if (stripe && config.STRIPE_PUBLISHABLE_KEY && config.STRIPE_WEBHOOK_SECRET) {
    const cards = new BillingCardService({
      db,
      stripe,
      access,
      membership: deps.membership,
      organizations: deps.organizations,
      publishableKey: config.STRIPE_PUBLISHABLE_KEY,
      instance,
    });
    const prices = new PlanPrices(stripe, async () =>
      (await deps.plans.listTariffs()).filter((plan) => plan.price > 0).map((plan) => plan.code),
    );
    const fit = new PlanFit({ usage: deps.usage, organizationPlans: deps.organizationPlans });
    hosted = {
      cards,
      subscriptions: new BillingSubscriptionService({
        ...{ db, stripe, access, plans: deps.plans, prices, cards, standing, overview, fit, instance },
      }),
    };
    webhooks = new BillingWebhookService({
      db,
      stripe,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      standing,
    });
  }
  return {
    services: { billingOverview: overview, billingStanding: standing },
    routes: (app) => {
      registerBillingRoutes(app, { overview, hosted });
      registerInvoiceRoutes(app, { invoices, publicUrl: config.PUBLIC_URL });
      registerBillingWebhookRoute(app, { webhooks });
    },
    jobs: Object.values(jobs),
  } satisfies AppModule;
}
