import {
  customStorage,
  customStorageInput,
  googleCloudStorage,
  googleCloudStorageInput,
  organizationIdParams,
  storageKinds,
  storageOverview,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { parseInput } from "../../http/parse-input.ts";
import { readSmallFileForm } from "../../http/small-file-form.ts";
import type { StorageMoveService } from "./storage-move.service.ts";
import type { StorageSettingsService } from "./storage-settings.service.ts";

const tags = ["organization storage"];
const errors = errorResponses;
const maxCredentialsBytes = 64 * 1024;

/** `{id}` is the organization's id in every path here. Owners and admins only. */
export function registerStorageRoutes(
  app: FastifyInstance,
  deps: { settings: StorageSettingsService; moves: StorageMoveService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { settings, moves } = deps;

  routes.get(
    "/api/orgs-custom-storage/:id/",
    {
      schema: {
        tags,
        summary: "The organization's S3-compatible bucket (the secret is never sent back)",
        params: organizationIdParams,
        response: { 200: customStorage, ...errors },
      },
    },
    async (request) => settings.getCustom(requireActiveActor(request).userId, request.params.id),
  );

  routes.put(
    "/api/orgs-custom-storage/:id/",
    {
      schema: {
        tags,
        summary:
          "Use an S3-compatible bucket (AWS S3, MinIO, R2, Wasabi, Spaces) for new files; the bucket is tested first",
        params: organizationIdParams,
        body: customStorageInput,
        response: { 200: customStorage, ...errors },
      },
    },
    async (request) =>
      settings.putCustom(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.get(
    "/api/orgs-google-cloud-storage/:id/",
    {
      schema: {
        tags,
        summary: "The organization's Google Cloud Storage bucket (the key file is never sent back)",
        params: organizationIdParams,
        response: { 200: googleCloudStorage, ...errors },
      },
    },
    async (request) => settings.getGcs(requireActiveActor(request).userId, request.params.id),
  );

  routes.put(
    "/api/orgs-google-cloud-storage/:id/",
    {
      schema: {
        tags,
        summary:
          "Use a Google Cloud Storage bucket for new files: multipart with `bucket`, `prefix` and the service account's `gcs_credentials` JSON file (kept when left out)",
        params: organizationIdParams,
        response: { 200: googleCloudStorage, ...errors },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const form = request.isMultipart()
        ? await readSmallFileForm(request, {
            gcs_credentials: {
              maxBytes: maxCredentialsBytes,
              tooLarge: "The key file must be at most 64 KB.",
            },
          })
        : { fields: (request.body ?? {}) as Record<string, string>, files: {} as Record<string, Buffer> };
      const input = parseInput(googleCloudStorageInput, form.fields);
      return settings.putGcs(actor.userId, request.params.id, input, form.files.gcs_credentials);
    },
  );

  routes.put(
    "/api/orgs-cloud-storage-disable/:id/",
    {
      schema: {
        tags,
        summary: "New files go to the instance's storage again; files in the bucket stay readable there",
        params: organizationIdParams,
        response: { 200: z.object({ kind: z.enum(storageKinds) }), ...errors },
      },
    },
    async (request) => settings.disable(requireActiveActor(request).userId, request.params.id),
  );

  routes.get(
    "/api/orgs-storage/:id/",
    {
      schema: {
        tags,
        summary: "Where new files go, how many files live elsewhere, and the latest move",
        params: organizationIdParams,
        response: { 200: storageOverview, ...errors },
      },
    },
    async (request) => moves.overview(requireActiveActor(request).userId, request.params.id),
  );

  routes.post(
    "/api/orgs-storage/:id/move/",
    {
      schema: {
        tags,
        summary: "Move existing builds to where new files go (in the background; progress in the overview)",
        params: organizationIdParams,
        response: { 202: storageOverview, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return moves.start(requireActiveActor(request).userId, request.params.id);
    },
  );
}
