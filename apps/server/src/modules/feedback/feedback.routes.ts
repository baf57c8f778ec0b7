import { feedbackItem, feedbackListQuery, feedbackPatch, pageOf } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { FeedbackTriageService } from "./feedback-triage.service.ts";

const tags = ["feedback"];
const idParams = z.object({ id: z.coerce.number().int().positive() });

export function registerFeedbackRoutes(
  app: FastifyInstance,
  deps: { triage: FeedbackTriageService; publicUrl: string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { triage, publicUrl } = deps;

  routes.get(
    "/api/feedback-mobile-data/",
    {
      schema: {
        tags,
        summary:
          "Reports of an app (`app_id`) or of the organization (`app__organization`, admins); `status=4` means open; `ordering` as DRF, a descending id always follows",
        querystring: feedbackListQuery,
        response: { 200: pageOf(feedbackItem), ...errorResponses },
      },
    },
    async (request) => {
      const params = pageParams(request.query);
      const { count, results } = await triage.list(requireActiveActor(request).userId, request.query, params);
      return toPage(request, publicUrl, params, count, results);
    },
  );

  routes.get(
    "/api/feedback-mobile-data/:id/",
    {
      schema: {
        tags,
        summary: "One report",
        params: idParams,
        response: { 200: feedbackItem, ...errorResponses },
      },
    },
    async (request) => triage.get(requireActiveActor(request).userId, request.params.id),
  );

  routes.patch(
    "/api/feedback-mobile-data/:id/",
    {
      schema: {
        tags,
        summary:
          "Triage a report: status (0 new, 1 in progress, 2 resolved, 3 won't fix), assignee, internal note",
        params: idParams,
        body: feedbackPatch,
        response: { 200: feedbackItem, ...errorResponses },
      },
    },
    async (request) => triage.patch(requireActiveActor(request).userId, request.params.id, request.body),
  );
}
