import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { AppError } from "../../http/errors.ts";
import { declaredLength } from "../../http/multipart-upload.ts";
import type { ResumableUploadService, ResumableUploadState, TusBody } from "./resumable-upload.service.ts";
import {
  carriesBody,
  integerHeader,
  isTusBody,
  parseUploadMetadata,
  tusContentType,
  tusExtensions,
  tusVersion,
} from "./tus-headers.ts";
import { closingOnError } from "./upload.routes.ts";

const tags = ["builds"];
const collection = "/api/uploads/";
const member = "/api/uploads/:id/";
const idParams = z.object({ id: z.string().min(1).max(100) });
const noContent = { 204: z.null().describe("No content"), ...errorResponses };

/** The upload's state in tus headers; Upload-Expires in the HTTP date format tus asks for. */
function sendState(reply: FastifyReply, state: ResumableUploadState): FastifyReply {
  return reply
    .header("upload-offset", String(state.offset))
    .header("upload-expires", state.expiresAt.toUTCString())
    .header("cache-control", "no-store");
}

/** The request's bytes, read as they arrive (no parser buffers them; see the scope's parser). */
function bodyOf(request: FastifyRequest): TusBody {
  if (!isTusBody(request.headers)) {
    throw new AppError("unsupported_media_type", 415, `Send the bytes as ${tusContentType}.`);
  }
  return { stream: request.raw, declaredBytes: declaredLength(request) };
}

/**
 * tus 1.0.0 at /api/uploads/ (creation, creation-with-upload, termination, expiration), signed
 * like every API call (session token, API key, or the cookie with its XSRF header). Finishing is
 * not a tus step: the preload and CI upload requests take the upload's id in `upload_id`.
 */
export function registerResumableUploadRoutes(
  app: FastifyInstance,
  deps: { uploads: ResumableUploadService; maxUploadBytes: number },
) {
  return app.register(async (scope) => {
    // Bytes go to storage part by part as they arrive: nothing may read the body beforehand.
    scope.addContentTypeParser(tusContentType, (_request, _payload, done) => done(null));
    scope.addHook("onRequest", async (request) => {
      if (request.method === "OPTIONS") return;
      if (request.headers["tus-resumable"] !== tusVersion) {
        throw new AppError("tus_version", 412, `Send Tus-Resumable: ${tusVersion}, the version spoken here.`);
      }
    });
    // Every answer names the protocol version, refusals included (clients check it).
    scope.addHook("onSend", async (_request, reply) => {
      reply.header("tus-resumable", tusVersion);
      if (reply.statusCode === 412) reply.header("tus-version", tusVersion);
    });
    const routes = scope.withTypeProvider<ZodTypeProvider>();

    routes.options(
      collection,
      {
        schema: {
          tags,
          summary: "tus: the protocol version, extensions and largest upload this server takes",
          security: [],
          response: noContent,
        },
      },
      async (_request, reply) =>
        reply
          .header("tus-version", tusVersion)
          .header("tus-extension", tusExtensions)
          .header("tus-max-size", String(deps.maxUploadBytes))
          .status(204)
          .send(null),
    );

    routes.post(
      collection,
      {
        config: { buildUpload: true },
        schema: {
          tags,
          summary:
            "tus: start a resumable upload (Upload-Length; Upload-Metadata with filename and organization); a body of application/offset+octet-stream is its first bytes. 201 with Location",
          response: { 201: z.null().describe("Created"), ...errorResponses },
        },
      },
      async (request, reply) => {
        const actor = requireActiveActor(request);
        if (request.headers["upload-defer-length"] !== undefined) {
          throw AppError.badRequest("Upload-Defer-Length is not supported: send Upload-Length.");
        }
        const length = integerHeader(request.headers, "upload-length");
        if (length === null) throw AppError.badRequest("Send Upload-Length.");
        const header = request.headers["upload-metadata"];
        const rawMetadata = typeof header === "string" ? header : undefined;
        const input = {
          length,
          metadata: parseUploadMetadata(rawMetadata),
          rawMetadata: rawMetadata?.trim() ?? "",
        };
        const body = carriesBody(request.headers) ? bodyOf(request) : null;
        const state = await closingOnError(reply, () =>
          deps.uploads.create(actor.userId, request.ip, input, body),
        );
        return sendState(reply, state).header("location", `${collection}${state.id}/`).status(201).send(null);
      },
    );

    routes.head(
      member,
      {
        schema: {
          tags,
          summary: "tus: how far a resumable upload got (Upload-Offset, Upload-Length, Upload-Expires)",
          params: idParams,
        },
      },
      async (request, reply) => {
        const actor = requireActiveActor(request);
        const state = await deps.uploads.status(actor.userId, request.params.id);
        sendState(reply, state).header("upload-length", String(state.length));
        if (state.metadata) reply.header("upload-metadata", state.metadata);
        return reply.status(200).send();
      },
    );

    routes.patch(
      member,
      {
        config: { buildUpload: true },
        schema: {
          tags,
          summary:
            "tus: bytes (application/offset+octet-stream) from Upload-Offset, which must be the upload's offset (409 otherwise)",
          params: idParams,
          response: noContent,
        },
      },
      async (request, reply) => {
        const actor = requireActiveActor(request);
        const offset = integerHeader(request.headers, "upload-offset");
        if (offset === null) throw AppError.badRequest("Send Upload-Offset.");
        const body = bodyOf(request);
        const state = await closingOnError(reply, () =>
          deps.uploads.append(actor.userId, request.ip, request.params.id, offset, body),
        );
        return sendState(reply, state).status(204).send(null);
      },
    );

    routes.delete(
      member,
      {
        schema: {
          tags,
          summary: "tus: give up a resumable upload (its stored bytes are deleted)",
          params: idParams,
          response: noContent,
        },
      },
      async (request, reply) => {
        await deps.uploads.terminate(requireActiveActor(request).userId, request.params.id);
        return reply.status(204).send(null);
      },
    );
  });
}
