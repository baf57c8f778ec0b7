import {
  createTeamInput,
  orgTeam,
  orgTeamPage,
  team,
  teamIdParams,
  teamListQuery,
  teamPage,
  updateTeamInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { TeamService } from "./team.service.ts";

const tags = ["teams"];
const noContent = z.null().describe("No content");
const errors = errorResponses;

export function registerTeamRoutes(app: FastifyInstance, deps: { teams: TeamService; publicUrl: string }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { teams } = deps;

  routes.get(
    "/api/teams/",
    {
      schema: {
        tags,
        summary: "Teams of the caller's organizations (?org= one of them, ?s= title search)",
        querystring: teamListQuery,
        response: { 200: teamPage, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await teams.list(actor, request.query, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.get(
    "/api/teams/:id/",
    {
      schema: { tags, summary: "One team", params: teamIdParams, response: { 200: team, ...errors } },
    },
    async (request) => teams.get(requireActiveActor(request).userId, request.params.id),
  );

  routes.post(
    "/api/teams/",
    {
      schema: {
        tags,
        summary: "Create a team (admins)",
        body: createTeamInput,
        response: { 201: team, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      reply.status(201);
      return teams.create(actor.userId, request.body);
    },
  );

  routes.put(
    "/api/teams/:id/",
    {
      schema: {
        tags,
        summary: "Replace a team's title and members (team managers: members of their own teams)",
        params: teamIdParams,
        body: updateTeamInput,
        response: { 200: team, ...errors },
      },
    },
    async (request) => teams.update(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.delete(
    "/api/teams/:id/",
    {
      schema: {
        tags,
        summary: "Delete a team (admins)",
        params: teamIdParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await teams.delete(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/orgs-teams/",
    {
      schema: {
        tags,
        summary: "Teams with their members' names (?org= one organization)",
        querystring: teamListQuery.omit({ s: true }),
        response: { 200: orgTeamPage, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const params = pageParams(request.query, 20);
      const { count, results } = await teams.listWithUsers(actor.userId, request.query, params);
      return toPage(request, deps.publicUrl, params, count, results);
    },
  );

  routes.get(
    "/api/orgs-teams/:id/",
    {
      schema: {
        tags,
        summary: "One team with its members' names",
        params: teamIdParams,
        response: { 200: orgTeam, ...errors },
      },
    },
    async (request) => teams.getWithUsers(requireActiveActor(request).userId, request.params.id),
  );
}
