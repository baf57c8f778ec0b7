import {
  appleDeveloperAccountInput,
  developerAccount,
  developerAccountListQuery,
  googleDeveloperAccountInput,
  type StoreKind,
  storeCheckInput,
  storeCheckResult,
  storeUpload,
  storeUploadHistoryQuery,
  storeUploadInput,
  storeUploadTaskQuery,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { parseInput } from "../../http/parse-input.ts";
import { readSmallFileForm } from "../../http/small-file-form.ts";
import type { StoreAccountService } from "./store-accounts.service.ts";
import type { StoreCheckService } from "./store-checks.service.ts";
import type { StoreUploadService } from "./store-upload.service.ts";

const tags = ["store publishing"];
const errors = errorResponses;
const noContent = z.null().describe("No content");
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** A form of text fields and one small named file, or a JSON body without the file. */
async function readForm(request: FastifyRequest, fileField: string, maxBytes: number) {
  if (!request.isMultipart()) {
    return { fields: (request.body ?? {}) as Record<string, unknown>, file: undefined };
  }
  const form = await readSmallFileForm(request, {
    [fileField]: { maxBytes, tooLarge: `The file must be at most ${maxBytes / 1024} KB.` },
  });
  return { fields: form.fields as Record<string, unknown>, file: form.files[fileField] };
}

interface StoreRouteDeps {
  accounts: StoreAccountService;
  checks: StoreCheckService;
  uploads: StoreUploadService;
}

export function registerStoreRoutes(app: FastifyInstance, deps: StoreRouteDeps) {
  registerAccountRoutes(app, deps, "app_store", "/api/apple-developer-accounts/");
  registerAccountRoutes(app, deps, "google_play", "/api/google-developer-accounts/");
  registerCheckRoutes(app, deps);
  registerUploadRoutes(app, deps, "app_store", "/api/upload_ipa_tesflight/");
  registerUploadRoutes(app, deps, "google_play", "/api/upload_aab_googleplay/");
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/store-uploads/",
    {
      schema: {
        tags,
        summary: "The app's store uploads, newest first (the last 50)",
        querystring: storeUploadHistoryQuery,
        response: { 200: z.array(storeUpload), ...errors },
      },
    },
    async (request) => deps.uploads.history(requireActiveActor(request).userId, request.query.app_id),
  );
}

function registerAccountRoutes(app: FastifyInstance, deps: StoreRouteDeps, store: StoreKind, path: string) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const storeName = store === "app_store" ? "App Store Connect API key" : "Google Play service account";
  routes.get(
    path,
    {
      schema: {
        tags,
        summary: `The organization's ${storeName}s (owners and admins; the key is never sent back)`,
        querystring: developerAccountListQuery,
        response: { 200: z.array(developerAccount), ...errors },
      },
    },
    async (request) => deps.accounts.list(requireActiveActor(request).userId, request.query.org, store),
  );
  routes.post(
    path,
    {
      schema: {
        tags,
        summary:
          store === "app_store"
            ? "Add an App Store Connect API key: multipart `org`, `key_name`, `issuer_id`, `key_id` and the `.p8` as `private_key_file`; saved once App Store Connect accepted it"
            : "Add a Google Play service account: multipart `org`, `key_name` and its JSON key as `private_key_file`; saved once Google issued a token for it",
        response: { 201: developerAccount, ...errors },
      },
    },
    async (request, reply) => {
      const userId = requireActiveActor(request).userId;
      const form = await readForm(request, "private_key_file", 64 * 1024);
      const account =
        store === "app_store"
          ? await deps.accounts.createApple(
              userId,
              parseInput(appleDeveloperAccountInput, form.fields),
              form.file,
            )
          : await deps.accounts.createGoogle(
              userId,
              parseInput(googleDeveloperAccountInput, form.fields),
              form.file,
            );
      return reply.status(201).send(account);
    },
  );
  routes.delete(
    `${path}:id/`,
    {
      schema: {
        tags,
        summary: `Delete a ${storeName} (its uploads' history stays)`,
        params: idParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await deps.accounts.delete(requireActiveActor(request).userId, store, request.params.id);
      return reply.status(204).send(null);
    },
  );
}

function registerCheckRoutes(app: FastifyInstance, deps: StoreRouteDeps) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const checks = [
    ["/api/check_possibility_to_upload_ipa/", "app_store", undefined],
    ["/api/check_possibility_to_upload_aab/", "google_play", undefined],
    ["/api/check_ipa_build_version/", "app_store", "build_version"],
  ] as const;
  for (const [path, store, only] of checks) {
    const summary = only
      ? "Whether the build's number is higher than App Store Connect's latest for the app"
      : `Whether the build can go to ${store === "app_store" ? "TestFlight" : "Google Play"}: each check with its reason`;
    const handler = (request: FastifyRequest, input: unknown) =>
      deps.checks.check(requireActiveActor(request).userId, store, parseInput(storeCheckInput, input), only);
    routes.get(
      path,
      { schema: { tags, summary, response: { 200: storeCheckResult, ...errors } } },
      (request) => handler(request, request.query),
    );
    routes.post(
      path,
      { schema: { tags, summary, response: { 200: storeCheckResult, ...errors } } },
      (request) => handler(request, request.body),
    );
  }
}

function registerUploadRoutes(app: FastifyInstance, deps: StoreRouteDeps, store: StoreKind, path: string) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const storeName = store === "app_store" ? "TestFlight" : "Google Play";
  routes.post(
    path,
    {
      schema: {
        tags,
        summary: `Send a build to ${storeName} in the background: multipart \`uid\` (the build), \`app_id\`, optional \`integration_id\`, \`release_notes\`, ${store === "app_store" ? "`groups`" : "`track`, `rollout`, `language`"} and \`plist_file\`; answers 202 with the task_id to poll`,
        response: { 202: z.object({ task_id: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const userId = requireActiveActor(request).userId;
      const form = await readForm(request, "plist_file", 256 * 1024);
      const started = await deps.uploads.start(
        userId,
        store,
        parseInput(storeUploadInput, form.fields),
        form.file,
      );
      return reply.status(202).send(started);
    },
  );
  routes.get(
    path,
    {
      schema: {
        tags,
        summary: `The state of a ${storeName} upload: queued, uploading (with percent), processing, done, failed (with the store's message)`,
        querystring: storeUploadTaskQuery,
        response: { 200: storeUpload, ...errors },
      },
    },
    async (request) => deps.uploads.status(requireActiveActor(request).userId, store, request.query.task_id),
  );
}
