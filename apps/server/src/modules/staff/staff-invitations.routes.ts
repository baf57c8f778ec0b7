import { invitationListQuery, invitationPage, membership, myInvitation } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { StaffInvitationsService } from "./staff-invitations.service.ts";

const tags = ["staff"];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const detail = z.object({ detail: z.string() });
const noContent = z.null().describe("No content");

/** The person's answers (`/api/invitations/`) and the organization's view (`/api/orgs-invitations/`). */
export function registerInvitationRoutes(
  app: FastifyInstance,
  deps: { invites: StaffInvitationsService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { invites } = deps;

  routes.get(
    "/api/invitations/",
    {
      schema: {
        tags,
        summary: "Your invitations to organizations, waiting for your answer",
        response: { 200: z.array(myInvitation), ...errorResponses },
      },
    },
    async (request) => invites.listMine(requireActiveActor(request).userId),
  );

  routes.post(
    "/api/invitations/:id/accept/",
    {
      schema: {
        tags,
        summary: "Accept an invitation: you become a member with the role it offered",
        params: idParams,
        response: { 200: membership, ...errorResponses },
      },
    },
    async (request) => invites.accept(requireActiveActor(request).userId, request.params.id),
  );

  routes.post(
    "/api/invitations/:id/decline/",
    {
      schema: {
        tags,
        summary: "Decline an invitation",
        params: idParams,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await invites.decline(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/orgs-invitations/",
    {
      schema: {
        tags,
        summary: "The organization's invitations not answered yet (admins)",
        querystring: invitationListQuery,
        response: { 200: invitationPage, ...errorResponses },
      },
    },
    async (request) => {
      const params = pageParams(request.query, 20);
      const { count, results } = await invites.listForOrganization(
        requireActiveActor(request),
        request.query,
        params,
      );
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.post(
    "/api/orgs-invitations/:id/resend/",
    {
      schema: {
        tags,
        summary: "Send an invitation's mail again (limited per address)",
        params: idParams,
        response: { 200: detail, ...errorResponses },
      },
    },
    async (request) => invites.resend(requireActiveActor(request).userId, request.params.id),
  );

  routes.delete(
    "/api/orgs-invitations/:id/",
    {
      schema: {
        tags,
        summary: "Cancel an invitation; its seat is free again",
        params: idParams,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await invites.cancel(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
