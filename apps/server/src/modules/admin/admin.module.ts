import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { PlanServices } from "../plan/plan.module.ts";
import { registerAdminOrganizationRoutes } from "./admin-organizations.routes.ts";
import { AdminOrganizationsService } from "./admin-organizations.service.ts";
import { registerMailTestRoute } from "./mail-test.routes.ts";
import { registerOutboxRoutes } from "./outbox.routes.ts";
import { OutboxService } from "./outbox.service.ts";

/** Instance administrators' tools: organizations and their plans, the dev outbox, a test message. */
export function createAdminModule(platform: Platform, deps: OrganizationServices & PlanServices) {
  const { db } = platform.database;
  const outbox = new OutboxService({ db });
  const organizations = new AdminOrganizationsService({
    db,
    organizationPlans: deps.organizationPlans,
    plans: deps.plans,
    usage: deps.usage,
  });
  const publicUrl = platform.config.PUBLIC_URL;
  return {
    services: {},
    routes: (app) => {
      registerOutboxRoutes(app, { outbox, publicUrl });
      registerMailTestRoute(app, { mail: platform.mail });
      registerAdminOrganizationRoutes(app, { organizations, publicUrl });
    },
  } satisfies AppModule;
}
