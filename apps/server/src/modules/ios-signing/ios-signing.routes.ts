import { iosResignAccepted, iosResignList, iosResignQuery } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { readResignForm } from "./ios-resign-form.ts";
import type { IosResignService } from "./ios-signing.service.ts";

const tags = ["signing"];

export function registerIosSigningRoutes(app: FastifyInstance, deps: { resigns: IosResignService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/api/app-resign-ios-build/",
    {
      schema: {
        tags,
        summary: "The re-signings of an iOS build, newest first, with their task states",
        querystring: iosResignQuery,
        response: { 200: iosResignList, ...errorResponses },
      },
    },
    async (request) => deps.resigns.list(requireActiveActor(request).userId, request.query.build_id),
  );

  routes.post(
    "/api/app-resign-ios-build/",
    {
      schema: {
        tags,
        summary:
          "Re-sign an IPA build as a new version: multipart with `build_id`, `file_p12` and its `password`, one or more `file_pp` profiles, optional `file_entitlements` and `bundle_ids` (JSON {old: new}). Answers 202 with the task to poll at /api/upload-task-result/{id}/; a set-up that cannot work is error 8.",
        response: { 202: iosResignAccepted, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      const input = await readResignForm(request);
      reply.code(202);
      return deps.resigns.start(actor.userId, input);
    },
  );
}
