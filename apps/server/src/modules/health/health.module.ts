import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import { registerHealthRoutes } from "./health.routes.ts";
import { HealthService } from "./health.service.ts";

/** Liveness and readiness (database and storage answer, and the process is not stopping). */
export function createHealthModule(platform: Platform) {
  const health = new HealthService({
    sql: platform.database.sql,
    storage: platform.storage,
    lifecycle: platform.lifecycle,
  });
  return { services: {}, routes: (app) => registerHealthRoutes(app, { health }) } satisfies AppModule;
}
