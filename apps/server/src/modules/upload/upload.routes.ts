import {
  applicationRecord,
  badRequestBody,
  createAppInput,
  errorBody,
  exchangeFileInput,
  preloadResult,
  taskAccepted,
  uploadTaskResult,
  version,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { AppError } from "../../http/errors.ts";
import type { BuildServices } from "./upload.module.ts";
import { streamBuildUpload } from "./upload-stream.ts";

const tags = ["builds"];
const errors = { 400: badRequestBody, 401: errorBody, 403: errorBody, 404: errorBody };
const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const multipartOnly = { hide: false, consumes: ["multipart/form-data"] };

/** Authentication comes before body validation: a signed-out caller learns 401, not field errors. */
const signedIn = {
  preValidation: async (request: FastifyRequest) => {
    requireActiveActor(request);
  },
};

function requireMultipart(request: { isMultipart(): boolean }): void {
  if (!request.isMultipart()) throw AppError.validation({ file: ["Send the build as multipart/form-data."] });
}

/** A refused upload stops reading the body: the connection closes instead of draining gigabytes. */
function closeOnError(reply: FastifyReply): void {
  reply.header("connection", "close");
}

export function registerBuildRoutes(app: FastifyInstance, services: BuildServices, maxUploadBytes: number) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    "/api/applicationadd/",
    {
      ...signedIn,
      bodyLimit: maxUploadBytes,
      schema: {
        ...multipartOnly,
        tags,
        summary:
          "Upload a build (multipart: organization, optional app or app_type, then file) for confirmation",
        querystring: z.object({ preload: z.string().optional() }),
        response: { 200: preloadResult, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      requireMultipart(request);
      let target: Awaited<ReturnType<typeof services.preloads.resolveTarget>> | null = null;
      try {
        const { file } = await streamBuildUpload(request, {
          fileField: "file",
          maxFileBytes: maxUploadBytes,
          target: async (fields) => {
            target = await services.preloads.resolveTarget(actor.userId, fields);
            return target;
          },
        });
        if (!file || !target) throw AppError.validation({ file: ["No file was submitted."] });
        return await services.preloads.completePreload(target, file);
      } catch (error) {
        closeOnError(reply);
        throw error;
      }
    },
  );

  routes.post(
    "/api/applications/",
    {
      ...signedIn,
      schema: {
        tags,
        summary:
          "Confirm a preload: a new app, or with ?app= a new version (202 {task_id} while an AAB converts)",
        querystring: z.object({
          app: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
        }),
        body: createAppInput,
        response: { 201: applicationRecord, 202: taskAccepted, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireActiveActor(request);
      const outcome = await services.creates.confirm(actor.userId, request.body, request.query.app);
      if (outcome.status === 202) return reply.status(202).send({ task_id: outcome.taskId });
      return reply.status(201).send(outcome.record);
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
      return services.exchanges.exchange(actor.userId, request.params.id, request.body);
    },
  );

  routes.put(
    "/api/app_upload/:app_key/:api_key/",
    {
      bodyLimit: maxUploadBytes,
      schema: {
        ...multipartOnly,
        tags,
        summary:
          "CI upload: multipart `app` (the build), whats_new, git_branch, git_tag, git_commit, ready_to_sale, unique_app_id_changed",
        security: [],
        params: z.object({ app_key: z.string().min(1).max(100), api_key: z.string().min(1).max(200) }),
        response: { 201: applicationRecord, ...errors },
      },
    },
    async (request, reply) => {
      requireMultipart(request);
      try {
        const target = await services.ciUploads.resolveTarget(request.params.app_key, request.params.api_key);
        const { fields, file } = await streamBuildUpload(request, {
          fileField: "app",
          maxFileBytes: maxUploadBytes,
          target: async () => target,
        });
        if (!file) throw AppError.validation({ app: ["No file was submitted."] });
        return reply.status(201).send(await services.ciUploads.complete(target, file, fields));
      } catch (error) {
        closeOnError(reply);
        throw error;
      }
    },
  );

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
      return services.tasks.getResult(actor.userId, request.params.id);
    },
  );
}
