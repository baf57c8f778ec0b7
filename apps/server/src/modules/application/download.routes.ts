import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../http/errors.ts";
import { sendStoredObject } from "../../http/send-stored-object.ts";
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
      if (!file) throw AppError.notFound();
      return sendStoredObject(request, reply, deps.storage, {
        key: file.key,
        contentType: file.contentType,
        fileName: file.fileName,
        onDelivered: () => {
          deps.versions.countDownload(versionId).catch((error) => {
            request.log.error({ err: error, versionId }, "download count failed");
          });
        },
      });
    },
  });
}
