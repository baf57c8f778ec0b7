import {
  billingOverview,
  billingQuery,
  cardSetup,
  monthPrice,
  monthPriceParams,
  monthPriceQuery,
  savedCard,
  stripeCustomerInput,
  stripeCustomerQuery,
  subscriptionInput,
  subscriptionOrgInput,
  subscriptionResult,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { AppError } from "../../http/errors.ts";
import type { BillingCardService } from "./billing-card.service.ts";
import type { BillingOverviewService } from "./billing-overview.service.ts";
import type { BillingSubscriptionService } from "./billing-subscription.service.ts";

const tags = ["billing"];
const errors = { ...errorResponses, 502: errorResponses[404] };

/** The services that need Stripe: absent where it is not configured. */
export interface HostedBilling {
  cards: BillingCardService;
  subscriptions: BillingSubscriptionService;
}

export function enabled<T>(service: T | null): T {
  if (!service) throw AppError.notFound("Billing is not enabled on this instance.");
  return service;
}

/** Card, subscription and prices. Owners change them; owners and admins read them. */
export function registerBillingRoutes(
  app: FastifyInstance,
  deps: { overview: BillingOverviewService; hosted: HostedBilling | null },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { overview, hosted } = deps;

  routes.get(
    "/api/stripe-customer/",
    {
      schema: {
        tags,
        summary: "Start saving a card: a SetupIntent's client secret and the publishable key (owners)",
        querystring: stripeCustomerQuery,
        response: { 200: cardSetup, ...errors },
      },
    },
    async (request) =>
      enabled(hosted).cards.setup(requireActiveActor(request).userId, request.query.subdomain),
  );

  routes.post(
    "/api/stripe-customer/",
    {
      schema: {
        tags,
        summary:
          "Save the card a SetupIntent confirmed as the organization's default (prepaid cards refused)",
        body: stripeCustomerInput,
        response: { 200: savedCard, ...errors },
      },
    },
    async (request) => enabled(hosted).cards.save(requireActiveActor(request).userId, request.body),
  );

  routes.get(
    "/api/billing/",
    {
      schema: {
        tags,
        summary:
          "The organization's plan, subscription, card and next charge; {enabled: false} without Stripe",
        querystring: billingQuery,
        response: { 200: billingOverview, ...errors },
      },
    },
    async (request) => overview.get(requireActiveActor(request), request.query),
  );

  routes.post(
    "/api/billing/subscription/",
    {
      schema: {
        tags,
        summary:
          "Subscribe or change plan or interval (prorated); refused when the organization holds more than the plan allows; may ask for 3-D Secure",
        body: subscriptionInput,
        response: { 200: subscriptionResult, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireActiveActor(request);
      return enabled(hosted).subscriptions.change(userId, request.body, userId);
    },
  );

  const periodEnd = [
    ["cancel", "Cancel the subscription at the end of the period paid for"],
    ["resume", "Keep a subscription cancelled at the period's end"],
  ] as const;
  for (const [action, summary] of periodEnd) {
    routes.post(
      `/api/billing/subscription/${action}/`,
      {
        schema: { tags, summary, body: subscriptionOrgInput, response: { 200: billingOverview, ...errors } },
      },
      async (request) => {
        const { userId } = requireActiveActor(request);
        return enabled(hosted).subscriptions[action](userId, request.body.org, userId);
      },
    );
  }

  routes.get(
    "/api/month_price/:id/",
    {
      schema: {
        tags,
        summary: "What the organization pays per month now and on plan {id}, with the change's proration",
        params: monthPriceParams,
        querystring: monthPriceQuery,
        response: { 200: monthPrice, ...errors },
      },
    },
    async (request) =>
      enabled(hosted).subscriptions.monthPrice(requireActiveActor(request), request.params.id, request.query),
  );
}
