import {
  activityQuery,
  adminOrganization,
  adminOrganizationPage,
  adminOrganizationPatch,
  adminOrganizationsQuery,
  organizationActivityPage,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireInstanceAdmin } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { AdminOrganizationsService } from "./admin-organizations.service.ts";

const tags = ["admin"];
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** `/api/admin/organizations/`: every organization, its plan and limits (instance administrators). */
export function registerAdminOrganizationRoutes(
  app: FastifyInstance,
  deps: { organizations: AdminOrganizationsService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { organizations } = deps;

  routes.get(
    "/api/admin/organizations/",
    {
      schema: {
        tags,
        summary:
          "The instance's organizations with owner, plan, limits and usage; search by title, subdomain or owner",
        querystring: adminOrganizationsQuery,
        response: { 200: adminOrganizationPage, ...errorResponses },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await organizations.list(request.query.search, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.get(
    "/api/admin/organizations/:id/",
    {
      schema: {
        tags,
        summary: "One organization of the instance",
        params: idParams,
        response: { 200: adminOrganization, ...errorResponses },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      return organizations.get(request.params.id);
    },
  );

  routes.patch(
    "/api/admin/organizations/:id/",
    {
      schema: {
        tags,
        summary: "Put an organization on a plan and set its own limits (null: the plan's); logged",
        params: idParams,
        body: adminOrganizationPatch,
        response: { 200: adminOrganization, ...errorResponses },
      },
    },
    async (request) => {
      const admin = requireInstanceAdmin(request);
      return organizations.update(admin.userId, request.params.id, request.body);
    },
  );

  routes.get(
    "/api/admin/organizations/:id/activity/",
    {
      schema: {
        tags,
        summary: "An organization's activity log: plan and limit changes, by whom",
        params: idParams,
        querystring: activityQuery,
        response: { 200: organizationActivityPage, ...errorResponses },
      },
    },
    async (request) => {
      requireInstanceAdmin(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await organizations.activity(request.params.id, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );
}
