import {
  appLogPage,
  applicationDetail,
  applicationListQuery,
  applicationPage,
  myAppRole,
  pageQuery,
  updateAppInput,
  version,
  versionPage,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageBytes, pageParams, sendJson, toPage } from "../../http/pagination.ts";
import { queryFlag as flag, idParams } from "../../http/route-schemas.ts";
import type { ApplicationDeletionService } from "./application-deletion.service.ts";
import type { ApplicationQueryService } from "./application-query.service.ts";
import type { ApplicationUpdateService } from "./application-update.service.ts";
import { appPrefixes, installableOnly } from "./installable-only.ts";

const tags = ["applications"];
const errors = errorResponses;
const noContent = z.null().describe("No content");

export function registerApplicationRoutes(
  app: FastifyInstance,
  deps: {
    queries: ApplicationQueryService;
    updates: ApplicationUpdateService;
    deletions: ApplicationDeletionService;
    publicUrl: string;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { queries, updates, deletions } = deps;

  for (const [url, installable] of appPrefixes) {
    routes.get(
      url,
      {
        schema: {
          tags,
          summary: installable
            ? "Apps the caller may install, newest build first"
            : "Apps of one organization (?org=, else the first), newest activity first",
          querystring: applicationListQuery,
          response: { 200: applicationPage, ...errors },
        },
      },
      async (request, reply) => {
        const actor = requireActiveActor(request);
        const params = pageParams(request.query, 20);
        const json = await queries.listJson(
          actor,
          request.query,
          params,
          { installable, pageKey: request.url },
          (page) =>
            pageBytes(toPage(request, deps.publicUrl, params, page.count, page.results), page.results),
        );
        return sendJson(reply, json);
      },
    );
  }

  for (const [prefix, installable] of appPrefixes) {
    const guard = installableOnly(queries, installable);
    for (const method of ["PUT", "PATCH"] as const) {
      routes.route({
        method,
        url: `${prefix}:id/`,
        ...guard,
        schema: {
          tags,
          summary:
            method === "PUT"
              ? "Change an app (?newappkey=1 rotates its app key)"
              : "Change some of an app's fields",
          params: idParams,
          querystring: z.object({ newappkey: flag }),
          // ?newappkey=1 is sent without a body.
          body: updateAppInput.nullish(),
          response: { 200: applicationDetail, ...errors },
        },
        handler: async (request) => {
          const { userId } = requireActiveActor(request);
          if (method === "PUT" && request.query.newappkey)
            return updates.rotateAppKey(userId, request.params.id);
          return updates.update(userId, request.params.id, request.body ?? {});
        },
      });
    }

    routes.delete(
      `${prefix}:id/`,
      {
        ...guard,
        schema: {
          tags,
          summary: "Delete an app (?all=1: every app of its project and the project)",
          params: idParams,
          querystring: z.object({ all: flag }),
          response: { 204: noContent, ...errors },
        },
      },
      async (request, reply) => {
        await deletions.deleteApp(requireActiveActor(request).userId, request.params.id, request.query.all);
        return reply.status(204).send(null);
      },
    );
  }

  routes.get(
    "/api/applications/:id/builds/",
    {
      schema: {
        tags,
        summary: "The app's builds, newest first",
        params: idParams,
        querystring: pageQuery,
        response: { 200: versionPage, ...errors },
      },
    },
    async (request, reply) => {
      const params = pageParams(request.query, 20);
      const json = await queries.listBuildsJson(
        requireActiveActor(request),
        request.params.id,
        params,
        request.url,
        (page) => pageBytes(toPage(request, deps.publicUrl, params, page.count, page.results), page.results),
      );
      return sendJson(reply, json);
    },
  );

  routes.get(
    "/api/applications/:id/build/:buildId/",
    {
      schema: {
        tags,
        summary: "One build of the app",
        params: idParams.extend({ buildId: z.coerce.number().int().positive() }),
        response: { 200: version, ...errors },
      },
    },
    async (request) =>
      queries.getBuild(requireActiveActor(request).userId, request.params.id, request.params.buildId),
  );

  routes.get(
    "/api/applications/:id/check_my_role/",
    {
      schema: {
        tags,
        summary: "The caller's role and rights on the app",
        params: idParams,
        response: { 200: myAppRole, ...errors },
      },
    },
    async (request) => queries.checkMyRole(requireActiveActor(request).userId, request.params.id),
  );

  routes.get(
    "/api/app-logs/:id/",
    {
      schema: {
        tags,
        summary: "The app's activity log, newest first",
        params: idParams,
        querystring: pageQuery,
        response: { 200: appLogPage, ...errors },
      },
    },
    async (request) => {
      const params = pageParams(request.query, 20);
      const page = await queries.listLog(requireActiveActor(request).userId, request.params.id, params);
      return toPage(request, deps.publicUrl, params, page.count, page.results);
    },
  );
}
