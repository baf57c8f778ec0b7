import {
  createMembershipInput,
  errorBody,
  invitation,
  membership,
  membershipDetailQuery,
  membershipListQuery,
  membershipPage,
  membershipWithApiKey,
  orgUserPage,
  orgUsersQuery,
  patchMembershipInput,
  teamsUsersSearchQuery,
  teamsUsersSearchResult,
  twoFactorDisabled,
  updateMembershipInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import { requireXsrfForCookieAuth } from "../../http/xsrf.ts";
import type { StaffService } from "./staff.service.ts";
import type { StaffActionsService } from "./staff-actions.service.ts";
import type { StaffInvitationsService } from "./staff-invitations.service.ts";

const tags = ["staff"];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const noContent = z.null().describe("No content");
const errors = errorResponses;

export function registerStaffRoutes(
  app: FastifyInstance,
  deps: {
    staff: StaffService;
    actions: StaffActionsService;
    invites: StaffInvitationsService;
    publicUrl: string;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { staff, actions, invites } = deps;

  routes.get(
    "/api/usersinorgs/",
    {
      schema: {
        tags,
        summary: "Members of an organization (roles 3 and 5 see themselves, team managers their teams)",
        querystring: membershipListQuery,
        response: { 200: membershipPage, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await staff.list(actor, request.query, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.post(
    "/api/usersinorgs/",
    {
      schema: {
        tags,
        summary:
          "Invite a person by e-mail address within the plan's user limit; they become a member when they accept",
        body: createMembershipInput,
        response: { 201: invitation, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      reply.status(201);
      return invites.invite(actor.userId, request.body);
    },
  );

  routes.get(
    "/api/usersinorgs/:id/",
    {
      schema: {
        tags,
        summary: "One member; ?resend=1 re-sends the invitation, ?newapikey=1 rotates your own API key",
        params: idParams,
        querystring: membershipDetailQuery,
        response: { 200: z.union([membershipWithApiKey, membership, errorBody]), ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const { id } = request.params;
      if (request.query.resend || request.query.newapikey) requireXsrfForCookieAuth(request);
      if (request.query.newapikey) return actions.rotateApiKey(actor, id);
      if (request.query.resend) return actions.resendInvitation(actor.userId, id);
      return staff.get(actor.userId, id);
    },
  );

  routes.put(
    "/api/usersinorgs/:id/",
    {
      schema: {
        tags,
        summary: "Replace a member's role, teams and projects",
        params: idParams,
        body: updateMembershipInput,
        response: { 200: membership, ...errors },
      },
    },
    async (request) => staff.update(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.patch(
    "/api/usersinorgs/:id/",
    {
      schema: {
        tags,
        summary: "Change some of a member's role, teams and projects",
        params: idParams,
        body: patchMembershipInput,
        response: { 200: membership, ...errors },
      },
    },
    async (request) => staff.update(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.delete(
    "/api/usersinorgs/:id/",
    {
      schema: {
        tags,
        summary: "Remove a member (not the owner)",
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await staff.remove(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.route({
    method: ["GET", "POST"],
    url: "/api/usersinorgs/:id/disable2fa/",
    schema: {
      tags,
      summary: "Turn off a member's two-factor sign-in (admins; the owner's only by the owner)",
      params: idParams,
      response: { 200: twoFactorDisabled, ...errors },
    },
    handler: async (request) => {
      const actor = requireActiveActor(request);
      requireXsrfForCookieAuth(request);
      return actions.disableTwoFactor(actor.userId, request.params.id);
    },
  });

  routes.get(
    "/api/orgs-users/",
    {
      schema: {
        tags,
        summary: "The organization's users, for pickers",
        querystring: orgUsersQuery,
        response: { 200: orgUserPage, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await actions.listOrgUsers(actor, request.query, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.get(
    "/api/teams-users-search/",
    {
      schema: {
        tags,
        summary: "Teams and users matching a text (20 of each at most)",
        querystring: teamsUsersSearchQuery,
        response: { 200: teamsUsersSearchResult, ...errors },
      },
    },
    async (request) => actions.searchTeamsAndUsers(requireActiveActor(request), request.query),
  );
}
