import {
  createProjectMemberInput,
  projectCombinedUserPage,
  projectCombinedUsersQuery,
  projectMember,
  projectMemberListQuery,
  projectMemberPage,
  updateProjectMemberInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import { requireXsrfForCookieAuth } from "../../http/xsrf.ts";
import type { ProjectMemberService } from "./project-member.service.ts";

const tags = ["project members"];
const errors = errorResponses;
const noContent = z.null().describe("No content");
const idParams = z.object({ id: z.coerce.number().int().positive() });

export function registerProjectMemberRoutes(
  app: FastifyInstance,
  deps: { members: ProjectMemberService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { members } = deps;

  routes.get(
    "/api/usersinproject/",
    {
      schema: {
        tags,
        summary:
          "Members of a project (?project=, search, page); ?resend=1&user= sends a pending member's invitation again",
        querystring: projectMemberListQuery,
        response: { 200: z.union([projectMemberPage, z.object({ detail: z.string() })]), ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      if (request.query.resend) {
        // It sends mail and voids the earlier link: a cross-site page must not trigger it.
        requireXsrfForCookieAuth(request);
        return members.resendInvitation(actor.userId, request.query);
      }
      const params = pageParams(request.query, 20);
      const page = await members.list(actor, request.query, params);
      return toPage(request, deps.publicUrl, params, page.count, page.results);
    },
  );

  routes.post(
    "/api/usersinproject/",
    {
      schema: {
        tags,
        summary: "Add a member of the organization to a project",
        body: createProjectMemberInput,
        response: { 201: projectMember, ...errors },
      },
    },
    async (request, reply) => {
      const created = await members.create(requireActiveActor(request).userId, request.body);
      return reply.status(201).send(created);
    },
  );

  routes.put(
    "/api/usersinproject/:id/",
    {
      schema: {
        tags,
        summary: "Change a project member's role and environments",
        params: idParams,
        body: updateProjectMemberInput,
        response: { 200: projectMember, ...errors },
      },
    },
    async (request) => members.update(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.delete(
    "/api/usersinproject/:id/",
    {
      schema: {
        tags,
        summary: "Remove a member from a project",
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await members.remove(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/applications/:id/project_combined_users/",
    {
      schema: {
        tags,
        summary: "Who reaches the app's project: organization admins, then project members",
        params: idParams,
        querystring: projectCombinedUsersQuery,
        response: { 200: projectCombinedUserPage, ...errors },
      },
    },
    async (request) => {
      const params = pageParams(request.query, 10);
      const page = await members.combined(
        requireActiveActor(request),
        request.params.id,
        request.query,
        params,
      );
      return toPage(request, deps.publicUrl, params, page.count, page.results);
    },
  );
}
