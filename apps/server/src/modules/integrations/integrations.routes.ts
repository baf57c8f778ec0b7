import {
  chatChannelListItem,
  chatChannelListQuery,
  chatWebhook,
  chatWebhookInput,
  pageOf,
  pageQuery,
  webhook,
  webhookCreateInput,
  webhookDelivery,
  webhookListItem,
  webhookListQuery,
  webhookUpdateInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { ChatChannelService } from "./chat-channel.service.ts";
import type { WebhookService } from "./webhook.service.ts";

const tags = ["webhooks and chat"];
const errors = errorResponses;
const noContent = z.null().describe("No content");
const idParams = z.object({ id: z.coerce.number().int().positive() });

export function registerIntegrationRoutes(
  app: FastifyInstance,
  deps: { webhooks: WebhookService; chat: ChatChannelService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { webhooks, chat, publicUrl } = deps;
  const userOf = (request: Parameters<typeof requireActiveActor>[0]) => requireActiveActor(request).userId;

  routes.get(
    "/api/webhooks/",
    {
      schema: {
        tags,
        summary: "The organization's webhooks (`app`: one app's; `include_org=1`: and those for every app)",
        querystring: webhookListQuery,
        response: { 200: pageOf(webhookListItem), ...errors },
      },
    },
    async (request) => {
      const params = pageParams(request.query);
      const { count, results } = await webhooks.list(
        userOf(request),
        request.query.org,
        {
          ...(request.query.app ? { app: request.query.app } : {}),
          includeOrg: request.query.include_org === 1,
        },
        params,
      );
      return toPage(request, publicUrl, params, count, results);
    },
  );

  routes.post(
    "/api/webhooks/",
    {
      schema: {
        tags,
        summary: "Add a webhook; the answer carries its signing secret, shown only this once",
        body: webhookCreateInput,
        response: { 201: webhook, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return webhooks.create(userOf(request), request.body);
    },
  );

  routes.get(
    "/api/webhooks/:id/",
    { schema: { tags, summary: "One webhook", params: idParams, response: { 200: webhook, ...errors } } },
    async (request) => webhooks.get(userOf(request), request.params.id),
  );

  routes.put(
    "/api/webhooks/:id/",
    {
      schema: {
        tags,
        summary: "Change a webhook's URL, format, events or state (switching it on clears why it was off)",
        params: idParams,
        body: webhookUpdateInput,
        response: { 200: webhook, ...errors },
      },
    },
    async (request) => webhooks.update(userOf(request), request.params.id, request.body),
  );

  routes.delete(
    "/api/webhooks/:id/",
    {
      schema: {
        tags,
        summary: "Delete a webhook and its log",
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await webhooks.remove(userOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.post(
    "/api/webhooks/:id/rotate-secret/",
    {
      schema: {
        tags,
        summary: "A new signing secret, shown only in this answer; the old one stops at once",
        params: idParams,
        response: { 200: webhook, ...errors },
      },
    },
    async (request) => webhooks.rotateSecret(userOf(request), request.params.id),
  );

  routes.post(
    "/api/webhooks/:id/test/",
    {
      schema: {
        tags,
        summary: "Send a `webhook.test` event now; answers the delivery as the endpoint took it",
        params: idParams,
        response: { 200: webhookDelivery, ...errors },
      },
    },
    async (request) => webhooks.sendTest(userOf(request), request.params.id),
  );

  routes.get(
    "/api/webhooks/:id/deliveries/",
    {
      schema: {
        tags,
        summary: "The webhook's delivery log, newest first (kept 30 days)",
        params: idParams,
        querystring: pageQuery,
        response: { 200: pageOf(webhookDelivery), ...errors },
      },
    },
    async (request) => {
      const params = pageParams(request.query);
      const { count, results } = await webhooks.deliveries(userOf(request), request.params.id, params);
      return toPage(request, publicUrl, params, count, results);
    },
  );

  routes.post(
    "/api/webhook-deliveries/:id/redeliver/",
    {
      schema: {
        tags,
        summary: "Send a delivery again (same webhook-id); retried on the usual schedule if it fails",
        params: idParams,
        response: { 200: webhookDelivery, ...errors },
      },
    },
    async (request) => webhooks.redeliver(userOf(request), request.params.id),
  );

  routes.get(
    "/api/slackwebhooks/",
    {
      schema: {
        tags,
        summary: "The organization's apps that post new builds to a chat channel (admins only)",
        querystring: chatChannelListQuery,
        response: { 200: pageOf(chatChannelListItem), ...errors },
      },
    },
    async (request) => {
      const params = pageParams(request.query);
      const { count, results } = await chat.list(userOf(request), request.query.org, params);
      return toPage(request, publicUrl, params, count, results);
    },
  );

  routes.get(
    "/api/slackwebhooks/:id/",
    {
      schema: {
        tags,
        summary: "The app's chat channel (Slack, Microsoft Teams or Discord incoming webhook)",
        params: idParams,
        response: { 200: chatWebhook, ...errors },
      },
    },
    async (request) => chat.get(userOf(request), request.params.id),
  );

  routes.put(
    "/api/slackwebhooks/:id/",
    {
      schema: {
        tags,
        summary: "Tell a chat channel about every new build of the app",
        params: idParams,
        body: chatWebhookInput,
        response: { 200: chatWebhook, ...errors },
      },
    },
    async (request) => chat.put(userOf(request), request.params.id, request.body),
  );

  routes.delete(
    "/api/slackwebhooks/:id/",
    {
      schema: {
        tags,
        summary: "Stop the app's chat messages",
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await chat.remove(userOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.post(
    "/api/slackwebhooks/:id/test/",
    {
      schema: {
        tags,
        summary: "Post a test message to the app's chat channel now",
        params: idParams,
        response: { 200: webhookDelivery, ...errors },
      },
    },
    async (request) => chat.sendTest(userOf(request), request.params.id),
  );

  routes.get(
    "/api/slackwebhooks/:id/deliveries/",
    {
      schema: {
        tags,
        summary: "The messages sent to the app's chat channel, newest first",
        params: idParams,
        querystring: pageQuery,
        response: { 200: pageOf(webhookDelivery), ...errors },
      },
    },
    async (request) => {
      const params = pageParams(request.query);
      const { count, results } = await chat.deliveries(userOf(request), request.params.id, params);
      return toPage(request, publicUrl, params, count, results);
    },
  );
}
