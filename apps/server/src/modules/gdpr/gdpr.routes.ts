import { dataExportCreated, dataExportList, errorBody } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActor } from "../../http/auth.ts";
import type { GdprService } from "./gdpr.service.ts";

const tags = ["profile"];

/** Personal data exports; any signed-in account may use them, activated or not. */
export function registerGdprRoutes(app: FastifyInstance, deps: { gdpr: GdprService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post("/api/data-gdpr/", {
    schema: {
      tags,
      summary: "Request a JSON export of everything stored about the signed-in user",
      response: { 202: dataExportCreated, 401: errorBody, 429: errorBody },
    },
    handler: async (request, reply) => {
      const created = await deps.gdpr.requestExport(requireActor(request).userId);
      return reply.status(202).send(created);
    },
  });

  r.get("/api/data-gdpr/", {
    schema: {
      tags,
      summary: "The signed-in user's data exports, newest first, with short-lived download links",
      response: { 200: dataExportList, 401: errorBody },
    },
    handler: async (request) => deps.gdpr.listExports(requireActor(request).userId),
  });
}
