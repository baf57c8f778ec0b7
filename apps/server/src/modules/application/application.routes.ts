import {
  appLogPage,
  applicationDetail,
  applicationListQuery,
  applicationPage,
  applicationRecord,
  createAppInput,
  myAppRole,
  pageQuery,
  taskAccepted,
  updateAppInput,
  version,
  versionPage,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageBytes, pageParams, sendJson, toPage } from "../../http/pagination.ts";
import type { ApplicationDeletionService } from "./application-deletion.service.ts";
import type { ApplicationPorts } from "./application-ports.ts";
import type { ApplicationQueryService } from "./application-query.service.ts";
import type { ApplicationUpdateService } from "./application-update.service.ts";

const tags = ["applications"];
const errors = errorResponses;
const noContent = z.null().describe("No content");
const idParams = z.object({ id: z.coerce.number().int().positive() });
/** Query switches are sent as ?x=1 (or true). */
const flag = z
  .enum(["1", "true", "0", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

/** Sends an already serialized page (cached lists) without serializing it again. */
/** Authentication comes before body validation: a signed-out caller learns 401, not field errors. */
const signedIn = {
  preValidation: async (request: FastifyRequest) => {
    requireActiveActor(request);
  },
};

export function registerApplicationRoutes(
  app: FastifyInstance,
  deps: {
    queries: ApplicationQueryService;
    updates: ApplicationUpdateService;
    deletions: ApplicationDeletionService;
    ports: ApplicationPorts;
    publicUrl: string;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { queries, updates, deletions, ports } = deps;

  for (const [url, installable] of [
    ["/api/applications/", false],
    ["/api/m/applications/", true],
  ] as const) {
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

  // The mobile area (/api/m/applications/) answers the same calls with the same rules, limited to
  // apps the caller may install: any other app is 404 there.
  for (const [prefix, installable] of [
    ["/api/applications/", false],
    ["/api/m/applications/", true],
  ] as const) {
    const installableOnly = installable
      ? {
          preHandler: async (request: FastifyRequest) => {
            const { userId } = requireActiveActor(request);
            const id = (request.params as { id?: number }).id ?? (request.query as { app?: number }).app;
            if (id !== undefined) await queries.assertInstallable(userId, id);
          },
        }
      : {};
    routes.post(
      prefix,
      {
        ...signedIn,
        ...installableOnly,
        schema: {
          tags,
          summary:
            "Confirm a preload: a new app, or with ?app= a new version (202 {task_id} while an AAB converts)",
          querystring: z.object({
            app: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
          }),
          body: createAppInput,
          response: { 201: applicationRecord, 202: taskAccepted, ...errors },
        },
      },
      async (request, reply) => {
        const actor = requireActiveActor(request);
        const outcome = await ports.confirmBuild(actor.userId, request.body, request.query.app);
        if (outcome.status === 202) return reply.status(202).send({ task_id: outcome.taskId });
        return reply.status(201).send(outcome.record);
      },
    );

    routes.get(
      `${prefix}:id/`,
      {
        ...installableOnly,
        schema: {
          tags,
          summary:
            "One app (?builds=1 adds the first page of builds, ?showenvall=1 its environments, ?distribs=1 its install links, ?distrib_details={id} one link)",
          params: idParams,
          querystring: z.object({
            builds: flag,
            showenvall: flag,
            distribs: flag,
            distrib_details: z.coerce.number().int().positive().optional(),
          }),
          response: { 200: applicationDetail, ...errors },
        },
      },
      async (request) => {
        const { userId } = requireActiveActor(request);
        const { id } = request.params;
        const detail = await queries.getDetail(userId, id, { showAllEnvironments: request.query.showenvall });
        if (request.query.builds) {
          const params = pageParams({}, 20);
          const page = await queries.listBuilds(userId, id, params);
          detail.builds = toPage(
            { url: `${prefix}${id}/builds/` },
            deps.publicUrl,
            params,
            page.count,
            page.results,
          );
        }
        const { distribs, distrib_details: only } = request.query;
        if (distribs || only) {
          detail.distribution = await ports.appDistributions(userId, id, only ?? null);
        }
        return detail;
      },
    );

    for (const method of ["PUT", "PATCH"] as const) {
      routes.route({
        method,
        url: `${prefix}:id/`,
        ...installableOnly,
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
        ...installableOnly,
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
