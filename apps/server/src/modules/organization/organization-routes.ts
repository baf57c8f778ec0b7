import type { FastifyInstance } from "fastify";
import { registerPlanRoutes } from "../plan/plan.routes.ts";
import { registerStaffRoutes } from "../staff/staff.routes.ts";
import { registerTeamRoutes } from "../team/team.routes.ts";
import { registerOrganizationRoutes } from "./organization.routes.ts";
import type { OrganizationServices } from "./organization-services.ts";

/** Routes of organizations, plans, staff and teams. */
export function registerOrganizationAreaRoutes(
  app: FastifyInstance,
  services: OrganizationServices,
  publicUrl: string,
) {
  registerOrganizationRoutes(app, {
    organizations: services.organizations,
    lifecycle: services.organizationLifecycle,
    publicUrl,
  });
  registerPlanRoutes(app, { plans: services.plans });
  registerStaffRoutes(app, { staff: services.staff, actions: services.staffActions, publicUrl });
  registerTeamRoutes(app, { teams: services.teams, publicUrl });
}
