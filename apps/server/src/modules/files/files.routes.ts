import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { attachmentDisposition, parseRange } from "../../http/byte-range.ts";
import { AppError } from "../../http/errors.ts";
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
      const info = await deps.storage.stat(key);
      if (!info) throw AppError.notFound();
      const range = parseRange(request.headers.range, info.size);
      reply.header("accept-ranges", "bytes");
      reply.header("cache-control", "private, max-age=0, no-store");
      if (range.kind === "unsatisfiable") {
        reply.header("content-range", `bytes */${info.size}`);
        return reply.status(416).send({ detail: "Requested range not satisfiable." });
      }
      reply.header("content-type", type || "application/octet-stream");
      if (name) reply.header("content-disposition", attachmentDisposition(name));
      const { start, end } = range.kind === "partial" ? range.range : { start: 0, end: info.size - 1 };
      reply.header("content-length", String(Math.max(0, end - start + 1)));
      if (range.kind === "partial") {
        reply.status(206).header("content-range", `bytes ${start}-${end}/${info.size}`);
      }
      if (request.method === "HEAD" || info.size === 0) return reply.send();
      return reply.send(await deps.storage.read(key, { start, end }));
    },
  });
}
