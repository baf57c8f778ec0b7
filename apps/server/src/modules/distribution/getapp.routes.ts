import {
  errorBody,
  getappPage,
  getappQuery,
  loginRequiredBody,
  unlockInput,
  unlockResult,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendStoredObject } from "../../http/send-stored-object.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import type { GetappService } from "./getapp.service.ts";

const tags = ["install page"];
// Keys are opaque: anything that is not one is simply not found.
const keyParams = z.object({ key: z.string().min(1).max(100) });
const signed = { expires: z.coerce.number().int(), signature: z.string().min(10).max(100) };
const goneBody = getappPage.extend({ detail: z.string() });

/** The public install page API: no account needed except on members-only links. */
export function registerGetappRoutes(
  app: FastifyInstance,
  deps: { getapp: GetappService; storage: StorageDriver },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { getapp } = deps;

  routes.get(
    "/api/getapp/:key/",
    {
      schema: {
        tags,
        summary: "What an install link offers (builds stay empty until a password link is unlocked)",
        params: keyParams,
        querystring: getappQuery,
        security: [],
        response: { 200: getappPage, 403: loginRequiredBody, 404: errorBody, 410: goneBody },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return getapp.page(request.params.key, {
        actor: request.actor,
        accessToken: request.query.access_token,
      });
    },
  );

  routes.post(
    "/api/getapp/:key/unlock/",
    {
      schema: {
        tags,
        summary: "Unlock a password link for an hour",
        params: keyParams,
        body: unlockInput,
        security: [],
        response: {
          200: unlockResult,
          400: z.record(z.string(), z.unknown()),
          404: errorBody,
          429: errorBody,
        },
      },
    },
    async (request) => getapp.unlock(request.params.key, request.body.password, request.ip),
  );

  routes.get(
    "/api/getapp/:key/manifest.plist",
    {
      schema: {
        tags,
        summary: "The itms-services manifest an iPhone or iPad reads (signed link)",
        params: keyParams,
        querystring: z.object({ version: z.coerce.number().int().positive(), ...signed }),
        security: [],
        produces: ["text/xml"],
      },
    },
    async (request, reply) => {
      const client = { address: request.ip, userAgent: request.headers["user-agent"] };
      const xml = await getapp.manifest(request.params.key, request.query, client);
      return reply.type("text/xml; charset=utf-8").header("cache-control", "private, no-store").send(xml);
    },
  );

  routes.route({
    method: ["GET", "HEAD"],
    url: "/api/getapp/:key/file/:versionId/:kind/",
    schema: {
      params: keyParams.extend({
        versionId: z.coerce.number().int().positive(),
        kind: z.enum(["file", "universal-apk"]),
      }),
      querystring: z.object(signed),
      hide: true,
    },
    handler: async (request, reply) => {
      const { key, versionId, kind } = request.params;
      if (request.method === "HEAD") {
        // A HEAD delivers nothing: it must neither take nor count an install.
        const head = await getapp.describeFile(key, { versionId, kind, ...request.query });
        return sendStoredObject(request, reply, deps.storage, head);
      }
      const client = { address: request.ip, userAgent: request.headers["user-agent"] };
      const file = await getapp.file(key, { versionId, kind, ...request.query }, client);
      const logFailure = (error: unknown) =>
        request.log.error({ err: error, versionId }, "install link download bookkeeping failed");
      return sendStoredObject(request, reply, deps.storage, {
        key: file.key,
        contentType: file.contentType,
        fileName: file.fileName,
        onDelivered: () => void file.delivered().catch(logFailure),
        onAbandoned: () => void file.abandoned().catch(logFailure),
      });
    },
  });
}
