import { updateVersionInput, version } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import type { ApplicationDeletionService } from "./application-deletion.service.ts";
import type { ApplicationPorts } from "./application-ports.ts";
import { fileKinds } from "./download-link.ts";
import type { VersionService } from "./version.service.ts";

const tags = ["versions"];
const errors = errorResponses;
const noContent = z.null().describe("No content");
const idParams = z.object({ id: z.coerce.number().int().positive() });
const releaseInput = updateVersionInput.pick({ whats_new: true, ready_to_sale: true });

export function registerVersionRoutes(
  app: FastifyInstance,
  deps: { versions: VersionService; deletions: ApplicationDeletionService; ports: ApplicationPorts },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { versions: versionService, deletions } = deps;

  routes.get(
    "/api/versions/:id/",
    { schema: { tags, summary: "One version", params: idParams, response: { 200: version, ...errors } } },
    async (request) => versionService.get(requireActiveActor(request).userId, request.params.id),
  );

  for (const method of ["PUT", "PATCH"] as const) {
    routes.route({
      method,
      url: "/api/versions/:id/",
      schema: {
        tags,
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
          return deps.ports.exchangeBuild(userId, request.params.id, {
            preload_path,
            comment: comment ?? "",
          });
        }
        return versionService.update(userId, request.params.id, request.body);
      },
    });
  }

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
