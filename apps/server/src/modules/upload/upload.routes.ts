import {
  ciUploadResult,
  errorBody,
  exchangeFileInput,
  preloadResult,
  uploadTaskResult,
  version,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { AppError } from "../../http/errors.ts";
import { multipartUploadSource, uploadRequestGuard } from "../../http/multipart-upload.ts";
import type { CiUploadService } from "./ci-upload.service.ts";
import type { ExchangeService } from "./exchange.service.ts";
import type { PreloadService } from "./preload.service.ts";
import type { BuildDeps } from "./upload-deps.ts";
import type { UploadTaskService } from "./upload-task.service.ts";

const tags = ["builds"];
const errors = errorResponses;
const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const multipartOnly = { hide: false, consumes: ["multipart/form-data"] };

/** Authentication comes before body validation: a signed-out caller learns 401, not field errors. */
const signedIn = {
  preValidation: async (request: FastifyRequest) => {
    requireActiveActor(request);
  },
};

/**
 * Refused bodies up to this size are read to their end before the answer: a client still sending
 * (curl, Updraft's Gradle plugin) would otherwise meet a reset connection instead of the answer
 * it reports, such as a wrong key's 404. Larger ones are not worth the wait or the bandwidth.
 */
const drainedRefusalBytes = 8 * 1024 * 1024;
const drainTimeoutMs = 10_000;

/** Reads what is left of a request body and drops it; false when it did not end in time. */
async function drained(body: NodeJS.ReadableStream & { readableEnded?: boolean }): Promise<boolean> {
  if (body.readableEnded) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), drainTimeoutMs);
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      resolve(ended);
    };
    body.once("end", () => settle(true));
    body.once("error", () => settle(false));
    body.once("close", () => settle(body.readableEnded === true));
    body.resume();
  });
}

/**
 * A refused upload stops reading a large body: the connection closes instead of draining
 * gigabytes. A small one is read to its end, so the client reads the answer.
 */
export async function closingOnError<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const declared = Number(reply.request.headers["content-length"]);
    const small = Number.isFinite(declared) && declared <= drainedRefusalBytes;
    if (!small || !(await drained(reply.request.raw))) reply.header("connection", "close");
    throw error;
  }
}

/**
 * An upload refusal as Updraft's clients read it: `{"status": "fail", "code": N}` beside
 * Tarmac's `error_code` and `detail`. Other errors (a wrong key's 404 `{"detail": "Not found."}`,
 * which Updraft's Gradle plugin recognizes) keep their body.
 */
class CiUploadFailure extends AppError {
  constructor(private readonly refusal: AppError) {
    super(refusal.code, refusal.status, refusal.detail, refusal.fields, refusal.errorCode);
  }
  override body() {
    return { status: "fail", code: this.errorCode, ...this.refusal.body() };
  }
}

function asCiUploadFailure(error: unknown): unknown {
  return error instanceof AppError && typeof error.errorCode === "number"
    ? new CiUploadFailure(error)
    : error;
}

export function registerUploadRoutes(
  app: FastifyInstance,
  deps: {
    preloads: PreloadService;
    ciUploads: CiUploadService;
    exchanges: ExchangeService;
    tasks: UploadTaskService;
    maxUploadBytes: number;
    appLinks: BuildDeps["appLinks"];
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { maxUploadBytes } = deps;
  const guard = uploadRequestGuard(maxUploadBytes);

  routes.post(
    "/api/applicationadd/",
    {
      // Signed in first (401 before anything about the body), then multipart before it is read.
      onRequest: [signedIn.preValidation, guard],
      bodyLimit: maxUploadBytes,
      config: { buildUpload: true },
      schema: {
        ...multipartOnly,
        tags,
        summary:
          "Upload a build (multipart: organization, optional app or app_type, then file; the file part may be named app) for confirmation; ?app={id} names the app in the URL",
        querystring: z.object({
          preload: z.string().optional(),
          app: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
        }),
        response: { 200: preloadResult, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      // Updraft's exchange steps send the build as `app`, with the app in the URL.
      const source = multipartUploadSource(request, {
        fileFields: ["file", "app"],
        maxFileBytes: maxUploadBytes,
      });
      return closingOnError(reply, () => deps.preloads.preload(actor.userId, source, request.query.app));
    },
  );

  routes.delete(
    "/api/preloads/:preload_path/",
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Discard an upload that will not be added (its space and build slot are free again)",
        params: z.object({ preload_path: z.string().min(1).max(100) }),
        response: { 204: z.null().describe("No content"), ...errors },
      },
    },
    async (request, reply) => {
      await deps.preloads.discard(requireActiveActor(request).userId, request.params.preload_path);
      return reply.status(204).send(null);
    },
  );

  routes.post(
    "/api/versions/:id/exchange/",
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Replace a version's file with a preloaded one",
        params: idParams,
        body: exchangeFileInput,
        response: { 200: version, 409: errorBody, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      return deps.exchanges.exchange(actor.userId, request.params.id, request.body);
    },
  );

  // Scripts often leave out the final slash; both spellings upload (the documented one has it).
  for (const url of ["/api/app_upload/:app_key/:api_key/", "/api/app_upload/:app_key/:api_key"]) {
    routes.put(
      url,
      {
        onRequest: guard,
        bodyLimit: maxUploadBytes,
        config: { buildUpload: true },
        schema: {
          ...multipartOnly,
          tags,
          summary:
            'CI upload: multipart `app` (the build), whats_new, git_branch, git_tag, git_commit, git_url, build_type, custom_bundle_version, ready_to_sale, unique_app_id_changed (Updraft\'s names too: see docs/updraft-compat.md). 200 with the app, success "ok" and public_link; failures carry status "fail" and code',
          security: [],
          ...(url.endsWith("/") ? {} : { hide: true }),
          params: z.object({ app_key: z.string().min(1).max(100), api_key: z.string().min(1).max(200) }),
          response: { 200: ciUploadResult, ...errors },
        },
      },
      async (request, reply) => {
        const { app_key, api_key } = request.params;
        const source = multipartUploadSource(request, { fileFields: ["app"], maxFileBytes: maxUploadBytes });
        try {
          const { record, warnings } = await closingOnError(reply, () =>
            deps.ciUploads.upload(app_key, api_key, source),
          );
          const public_link = await deps.appLinks.installPageOf({
            id: record.id,
            organizationId: record.organization,
          });
          return reply.status(200).send({ ...record, success: "ok" as const, public_link, warnings });
        } catch (error) {
          throw asCiUploadFailure(error);
        }
      },
    );
  }

  routes.get(
    "/api/upload-task-result/:id/",
    {
      ...signedIn,
      schema: {
        tags,
        summary: "State of a long upload task (AAB conversion)",
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: uploadTaskResult, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      return deps.tasks.getResult(actor.userId, request.params.id);
    },
  );
}
