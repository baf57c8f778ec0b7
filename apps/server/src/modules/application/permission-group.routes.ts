import {
  createPermissionGroupInput,
  permissionGroup,
  permissionGroupListQuery,
  permissionGroupPage,
  updatePermissionGroupInput,
  userInGroups,
  userInGroupsInput,
  userInGroupsQuery,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { PermissionGroupService } from "./permission-group.service.ts";

const tags = ["permission groups"];
const errors = errorResponses;
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** /api/groupsinorgs/ (groups) and /api/useringrouporg/ (a member's groups), owners and admins. */
export function registerPermissionGroupRoutes(
  app: FastifyInstance,
  deps: { groups: PermissionGroupService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { groups } = deps;

  routes.get(
    "/api/groupsinorgs/",
    {
      schema: {
        tags,
        summary: "Permission groups of an organization (?org= or ?subdomain=, ?s= title search)",
        querystring: permissionGroupListQuery,
        response: { 200: permissionGroupPage, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await groups.list(actor.userId, request.query, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.post(
    "/api/groupsinorgs/",
    {
      schema: {
        tags,
        summary: "Create a permission group: title, organization, projects it grants, members",
        body: createPermissionGroupInput,
        response: { 201: permissionGroup, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await groups.create(requireActiveActor(request).userId, request.body)),
  );

  routes.get(
    "/api/groupsinorgs/:id/",
    {
      schema: {
        tags,
        summary: "One permission group",
        params: idParams,
        response: { 200: permissionGroup, ...errors },
      },
    },
    async (request) => groups.get(requireActiveActor(request).userId, request.params.id),
  );

  for (const method of ["PUT", "PATCH"] as const) {
    routes.route({
      method,
      url: "/api/groupsinorgs/:id/",
      schema: {
        tags,
        summary: "Rename a permission group, or replace its projects or members",
        params: idParams,
        body: updatePermissionGroupInput,
        response: { 200: permissionGroup, ...errors },
      },
      handler: async (request) =>
        groups.update(requireActiveActor(request).userId, request.params.id, request.body),
    });
  }

  routes.delete(
    "/api/groupsinorgs/:id/",
    {
      schema: {
        tags,
        summary: "Delete a permission group (its grants end)",
        params: idParams,
        response: { 204: z.null().describe("No content"), ...errors },
      },
    },
    async (request, reply) => {
      await groups.remove(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.post(
    "/api/useringrouporg/",
    {
      schema: {
        tags,
        summary: "Put a member into permission groups (their other groups are kept)",
        body: userInGroupsInput,
        response: { 200: userInGroups, ...errors },
      },
    },
    async (request) => groups.addUser(requireActiveActor(request).userId, request.body),
  );

  routes.get(
    "/api/useringrouporg/",
    {
      schema: {
        tags,
        summary: "A member's permission groups (?user=, ?org=)",
        querystring: userInGroupsQuery,
        response: { 200: userInGroups, ...errors },
      },
    },
    async (request) => groups.groupsOf(requireActiveActor(request).userId, request.query),
  );
}
