import { updateVersionInput, version } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import type { ApplicationDeletionService } from "./application-deletion.service.ts";
import { fileKinds } from "./download-link.ts";
import type { VersionService } from "./version.service.ts";

const tags = ["versions"];
const errors = errorResponses;
const noContent = z.null().describe("No content");
const idParams = z.object({ id: z.coerce.number().int().positive() });
const releaseInput = updateVersionInput.pick({ whats_new: true, ready_to_sale: true });

export function registerVersionRoutes(
  app: FastifyInstance,
  deps: { versions: VersionService; deletions: ApplicationDeletionService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { versions: versionService, deletions } = deps;

  routes.get(
    "/api/versions/:id/",
    { schema: { tags, summary: "One version", params: idParams, response: { 200: version, ...errors } } },
    async (request) => versionService.get(requireActiveActor(request).userId, request.params.id),
  );

  routes.patch(
    "/api/releases/:id/",
    {
      schema: {
        tags,
        summary: "Change a version's release notes and release flag",
        params: idParams,
        body: releaseInput,
        response: { 200: version, ...errors },
      },
    },
    async (request) =>
      versionService.update(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.delete(
    "/api/versions/:id/",
    {
      schema: {
        tags,
        summary: "Delete a version",
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await deletions.deleteVersion(requireActiveActor(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/versions/:id/download/",
    {
      schema: {
        tags,
        summary:
          "Redirect to a short-lived signed link of the build (?kind=universal-apk for the APK made from an AAB)",
        params: idParams,
        querystring: z.object({ kind: z.enum(fileKinds).default("file") }),
        response: { 302: z.null().describe("Redirect to the file"), ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireActiveActor(request);
      const url = await versionService.getDownloadUrl(userId, request.params.id, request.query.kind);
      return reply.header("cache-control", "no-store").redirect(url, 302);
    },
  );
}
