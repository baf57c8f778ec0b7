import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import { registerPlanRoutes } from "./plan.routes.ts";
import { PlanService } from "./plan.service.ts";

/** Plans (the `plans` table) and `/api/tariffs/`. */
export function createPlanModule(platform: Platform) {
  const plans = new PlanService({
    db: platform.database.db,
    defaultPlanCode: platform.config.DEFAULT_PLAN,
    billingEnabled: Boolean(platform.config.STRIPE_SECRET_KEY),
    adminEmails: platform.config.ADMIN_EMAILS,
  });
  return {
    services: { plans },
    routes: (app) => registerPlanRoutes(app, { plans }),
  } satisfies AppModule;
}

export type PlanServices = ReturnType<typeof createPlanModule>["services"];
