import { errorBody, outboxPage, outboxQuery } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireInstanceAdmin } from "../../http/auth.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { OutboxService } from "./outbox.service.ts";

export function registerOutboxRoutes(
  app: FastifyInstance,
  deps: { outbox: OutboxService; publicUrl: string },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/admin/outbox/",
    {
      schema: {
        tags: ["admin"],
        summary: "Mail kept in the dev outbox (instance administrators only)",
        querystring: outboxQuery,
        response: { 200: outboxPage, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await deps.outbox.list(params, request.query.to);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );
}
