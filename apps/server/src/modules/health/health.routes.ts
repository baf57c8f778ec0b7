import { healthResponse, readinessResponse } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { HealthService } from "./health.service.ts";

export function registerHealthRoutes(app: FastifyInstance, deps: { health: HealthService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/api/health/",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness: the process answers",
        response: { 200: healthResponse },
      },
    },
    async () => ({ status: "ok" as const }),
  );

  routes.get(
    "/api/health/ready/",
    {
      schema: {
        tags: ["health"],
        summary: "Readiness: the database and storage answer",
        response: { 200: readinessResponse, 503: readinessResponse },
      },
    },
    async (_request, reply) => {
      const result = await deps.health.checkReadiness();
      return reply.status(result.status === "ok" ? 200 : 503).send(result);
    },
  );
}
