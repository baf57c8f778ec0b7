import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { attachmentDisposition, parseRange } from "../../http/byte-range.ts";
import { AppError } from "../../http/errors.ts";
import type { UrlSigner } from "../../platform/storage/signed-url.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";
import { fileKinds, verifyDownloadLink } from "./download-link.ts";
import type { VersionService } from "./version.service.ts";

const params = z.object({ versionId: z.coerce.number().int().positive(), kind: z.enum(fileKinds) });
const query = z.object({ expires: z.coerce.number().int(), signature: z.string().min(10).max(100) });

/**
 * Serves builds behind signed links (no cookie: installers send none) and counts a download
 * when a response that carried the file's last byte has been handed to the client completely.
 */
export function registerDownloadRoutes(
  app: FastifyInstance,
  deps: { versions: VersionService; storage: StorageDriver; signer: UrlSigner },
) {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: ["GET", "HEAD"],
    url: "/api/dl/:versionId/:kind/",
    schema: { params, querystring: query, hide: true },
    handler: async (request, reply) => {
      const { versionId, kind } = request.params;
      if (!verifyDownloadLink(deps.signer, versionId, kind, request.query.expires, request.query.signature)) {
        throw AppError.forbidden("This link has expired or is invalid.");
      }
      const file = await deps.versions.findDownloadableFile(versionId, kind);
      const info = file && (await deps.storage.stat(file.key));
      if (!file || !info) throw AppError.notFound();
      const range = parseRange(request.headers.range, info.size);
      reply.header("accept-ranges", "bytes");
      reply.header("cache-control", "private, max-age=0, no-store");
      if (range.kind === "unsatisfiable") {
        reply.header("content-range", `bytes */${info.size}`);
        return reply.status(416).send({ detail: "Requested range not satisfiable." });
      }
      reply.header("content-type", file.contentType || "application/octet-stream");
      reply.header("content-disposition", attachmentDisposition(file.fileName));
      const { start, end } = range.kind === "partial" ? range.range : { start: 0, end: info.size - 1 };
      reply.header("content-length", String(Math.max(0, end - start + 1)));
      if (range.kind === "partial") {
        reply.status(206).header("content-range", `bytes ${start}-${end}/${info.size}`);
      }
      if (request.method === "HEAD") return reply.send();
      if (end >= info.size - 1) {
        // "finish" fires only when the whole body was handed to the socket; an aborted
        // download closes without it and is not counted.
        reply.raw.once("finish", () => {
          deps.versions.countDownload(versionId).catch((error) => {
            request.log.error({ err: error, versionId }, "download count failed");
          });
        });
      }
      if (info.size === 0) return reply.send();
      return reply.send(await deps.storage.read(file.key, { start, end }));
    },
  });
}
