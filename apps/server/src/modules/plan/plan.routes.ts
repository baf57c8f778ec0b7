import { errorBody, organizationUsage, tariffList, usageQuery } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActiveActor } from "../../http/auth.ts";
import type { PlanService } from "./plan.service.ts";

export function registerPlanRoutes(app: FastifyInstance, deps: { plans: PlanService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    "/api/tariffs/",
    {
      schema: {
        tags: ["plans"],
        summary: "Plans on offer (public)",
        security: [],
        response: { 200: tariffList },
      },
    },
    async () => deps.plans.listTariffs(),
  );

  routes.get(
    "/api/organization/usage/",
    {
      schema: {
        tags: ["plans"],
        summary: "An organization's usage against its plan",
        querystring: usageQuery,
        response: { 200: organizationUsage, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      return deps.plans.getUsage(actor.userId, request.query.org);
    },
  );
}
