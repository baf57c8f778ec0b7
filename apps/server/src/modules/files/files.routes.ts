import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../http/errors.ts";
import { sendStoredObject } from "../../http/send-stored-object.ts";
import type { UrlSigner } from "../../platform/storage/signed-url.ts";
import { assertValidKey, type StorageDriver } from "../../platform/storage/storage-driver.ts";

const signedQuery = z.object({
  expires: z.coerce.number().int(),
  signature: z.string().min(10).max(100),
  name: z.string().max(255).default(""),
  type: z.string().max(100).default(""),
});

/**
 * Serves stored objects behind HMAC-signed, expiring URLs. No cookie or header is needed,
 * because iOS's installer and download managers send none.
 */
export function registerFileRoutes(
  app: FastifyInstance,
  deps: { storage: StorageDriver; signer: UrlSigner },
) {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: ["GET", "HEAD"],
    url: "/api/files/*",
    schema: { querystring: signedQuery, hide: true },
    handler: async (request, reply) => {
      const key = (request.params as { "*": string })["*"];
      const { expires, signature, name, type } = request.query;
      try {
        assertValidKey(key);
      } catch {
        throw AppError.notFound();
      }
      if (!deps.signer.verify(key, expires, name, type, signature)) {
        throw AppError.forbidden("This link has expired or is invalid.");
      }
      return sendStoredObject(request, reply, deps.storage, { key, contentType: type, fileName: name });
    },
  });
}
