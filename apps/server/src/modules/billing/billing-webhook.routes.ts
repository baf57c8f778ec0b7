import { webhookReceived } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../http/error-responses.ts";
import { enabled } from "./billing.routes.ts";
import type { BillingWebhookService } from "./billing-webhook.service.ts";

/** Stripe's events. The signature covers the exact bytes sent, so the body is kept as it came. */
export function registerBillingWebhookRoute(
  app: FastifyInstance,
  deps: { webhooks: BillingWebhookService | null },
) {
  app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "buffer", bodyLimit: 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/billing/stripe-webhook/",
      {
        schema: {
          tags: ["billing"],
          summary: "Stripe's events (signed with the webhook secret; 400 on a bad signature)",
          security: [],
          response: { 200: webhookReceived, ...errorResponses },
        },
      },
      async (request) => {
        const signature = request.headers["stripe-signature"];
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from("");
        await enabled(deps.webhooks).receive(body, typeof signature === "string" ? signature : undefined);
        return { received: true as const };
      },
    );
  });
}
