/**
 * The two URLs of the catalog that take a preload: confirming one as a new app or version
 * (POST /api/applications/) and exchanging a version's file (PUT /api/versions/{id}/ with
 * `preload_path`). They live here, above the catalog, so calls point one way: the version's
 * other changes, which share the URL, go down to the application module's version service.
 */
import {
  applicationRecord,
  createAppInput,
  taskAccepted,
  updateVersionInput,
  version,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses as errors } from "../../http/error-responses.ts";
import { idParams, signedInFirst } from "../../http/route-schemas.ts";
import type { ApplicationQueryService } from "../application/application-query.service.ts";
import { appPrefixes, installableOnly } from "../application/installable-only.ts";
import type { VersionService } from "../application/version.service.ts";
import type { BuildCreateService } from "./build-create.service.ts";
import type { ExchangeService } from "./exchange.service.ts";

export function registerConfirmAndExchangeRoutes(
  app: FastifyInstance,
  deps: {
    creates: BuildCreateService;
    exchanges: ExchangeService;
    queries: Pick<ApplicationQueryService, "assertInstallable">;
    versionEdits: VersionService;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  for (const [prefix, installable] of appPrefixes) {
    routes.post(
      prefix,
      {
        ...signedInFirst,
        ...installableOnly(deps.queries, installable),
        schema: {
          tags: ["applications"],
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
        const outcome = await deps.creates.confirm(actor.userId, request.body, request.query.app);
        if (outcome.status === 202) return reply.status(202).send({ task_id: outcome.taskId });
        return reply.status(201).send(outcome.record);
      },
    );
  }

  for (const method of ["PUT", "PATCH"] as const) {
    routes.route({
      method,
      url: "/api/versions/:id/",
      schema: {
        tags: ["versions"],
        summary:
          method === "PUT"
            ? "Change a version's notes, comment or release flag; with preload_path, replace its file (the comment goes to the app's log)"
            : "Change a version's notes, comment or release flag",
        params: idParams,
        body: updateVersionInput,
        response: { 200: version, ...errors },
      },
      handler: async (request) => {
        const { userId } = requireActiveActor(request);
        const { preload_path, comment } = request.body;
        if (method === "PUT" && preload_path !== undefined) {
          return deps.exchanges.exchange(userId, request.params.id, { preload_path, comment: comment ?? "" });
        }
        return deps.versionEdits.update(userId, request.params.id, request.body);
      },
    });
  }
}
