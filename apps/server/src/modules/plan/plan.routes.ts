import { tariffList } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { PlanService } from "./plan.service.ts";

export function registerPlanRoutes(app: FastifyInstance, deps: { plans: PlanService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
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
}
