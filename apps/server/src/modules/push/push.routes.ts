import {
  pushPublicKey,
  pushSubscriptionInput,
  pushSubscriptionList,
  pushSubscriptionRecord,
  pushTestResult,
  pushUnsubscribeInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { assertSignedIn } from "../../http/signed-in.ts";
import type { PushNotifyService } from "./push-notify.service.ts";
import type { PushSubscriptionService } from "./push-subscription.service.ts";

const tags = ["push"];
const noContent = z.null().describe("No content");

export function registerPushRoutes(
  app: FastifyInstance,
  deps: { subscriptions: PushSubscriptionService; notify: PushNotifyService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { subscriptions, notify } = deps;

  routes.get(
    "/api/push/public-key/",
    {
      schema: {
        tags,
        summary: "The server's VAPID public key, the applicationServerKey of PushManager.subscribe()",
        response: { 200: pushPublicKey, ...errorResponses },
      },
    },
    async () => ({ public_key: await subscriptions.publicKey() }),
  );

  routes.get(
    "/api/push/subscriptions/",
    {
      schema: {
        tags,
        summary: "The caller's subscribed browsers (endpoints are not shown)",
        response: { 200: pushSubscriptionList, ...errorResponses },
      },
    },
    async (request) => ({ results: await subscriptions.list(requireActiveActor(request).userId) }),
  );

  routes.post(
    "/api/push/subscriptions/",
    {
      preValidation: assertSignedIn,
      schema: {
        tags,
        summary:
          "Subscribe this browser: the PushSubscription's JSON and the language to write messages in; the same endpoint again updates it",
        body: pushSubscriptionInput,
        response: { 201: pushSubscriptionRecord, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return subscriptions.subscribe(requireActiveActor(request).userId, request.body);
    },
  );

  routes.post(
    "/api/push/subscriptions/unsubscribe/",
    {
      preValidation: assertSignedIn,
      schema: {
        tags,
        summary:
          "Unsubscribe this browser by its endpoint; 404 'Not subscribed to push notifications.' when it is not",
        body: pushUnsubscribeInput,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await subscriptions.unsubscribe(requireActiveActor(request).userId, request.body.endpoint);
      return reply.status(204).send(null);
    },
  );

  routes.post(
    "/api/push/test/",
    {
      schema: {
        tags,
        summary: "Push a test notification to each of the caller's subscribed browsers",
        response: { 202: pushTestResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return { sent: await notify.sendTest(requireActiveActor(request).userId) };
    },
  );
}
