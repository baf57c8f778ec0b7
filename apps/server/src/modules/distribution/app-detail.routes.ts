/**
 * One app, GET /api/applications/{id}/ (and the mobile area's): the catalog's detail, with on
 * request its first page of builds and its install links. The links are this module's, so the
 * route is registered here, above the catalog, and calls point one way.
 */
import { applicationDetail } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses as errors } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import { idParams, queryFlag } from "../../http/route-schemas.ts";
import type { ApplicationQueryService } from "../application/application-query.service.ts";
import { appPrefixes, installableOnly } from "../application/installable-only.ts";
import type { DistributionService } from "./distribution.service.ts";

export function registerAppDetailRoutes(
  app: FastifyInstance,
  deps: { queries: ApplicationQueryService; distributions: DistributionService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = deps;

  for (const [prefix, installable] of appPrefixes) {
    routes.get(
      `${prefix}:id/`,
      {
        ...installableOnly(queries, installable),
        schema: {
          tags: ["applications"],
          summary:
            "One app (?builds=1 adds the first page of builds, ?showenvall=1 its environments, ?distribs=1 its install links, ?distrib_details={id} one link)",
          params: idParams,
          querystring: z.object({
            builds: queryFlag,
            showenvall: queryFlag,
            distribs: queryFlag,
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
        if (distribs || only)
          detail.distribution = await deps.distributions.listForApp(userId, id, only ?? null);
        return detail;
      },
    );
  }
}
