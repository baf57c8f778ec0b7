import {
  androidBuildSigning,
  appKeystore,
  keystoreInput,
  organizationIdParams,
  organizationKeystore,
  resignAndroidBuildInput,
  resignAndroidBuildQuery,
  taskAccepted,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { AppError } from "../../http/errors.ts";
import { parseInput } from "../../http/parse-input.ts";
import { readSmallFileForm } from "../../http/small-file-form.ts";
import type { BuildSigningService } from "./build-signing.service.ts";
import type { KeystoreService } from "./keystore.service.ts";

const tags = ["android signing"];
/** Keystores are a few KB; 1 MB leaves room for long chains without buffering anything large. */
const maxKeystoreBytes = 1024 * 1024;

async function readKeystoreForm(request: FastifyRequest) {
  if (!request.isMultipart()) throw AppError.validation({ keystore_file: ["No file was submitted."] });
  const form = await readSmallFileForm(request, {
    keystore_file: { maxBytes: maxKeystoreBytes, tooLarge: "The keystore file must be at most 1 MB." },
  });
  return {
    input: parseInput(keystoreInput, form.fields),
    file: form.files.keystore_file,
    fileName: form.fileNames.keystore_file ?? "",
  };
}

/** `app-keystore/{id}` takes the app's id, `orgs-keystore/{id}` the organization's. */
export function registerAndroidSigningRoutes(
  app: FastifyInstance,
  deps: { keystores: KeystoreService; signing: BuildSigningService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { keystores, signing } = deps;

  routes.get(
    "/api/app-keystore/:id/",
    {
      schema: {
        tags,
        summary:
          "The app's Android keystore (never the file or passwords) and the key that signs its builds now",
        params: organizationIdParams,
        response: { 200: appKeystore, ...errorResponses },
      },
    },
    async (request) => keystores.getForApp(requireActiveActor(request).userId, request.params.id),
  );

  routes.put(
    "/api/app-keystore/:id/",
    {
      schema: {
        tags,
        summary:
          "Sign the app's Android builds with this keystore: multipart `keystore_file` (JKS or PKCS#12), `store_password`, `key_alias`, `key_password`; opened before it is saved",
        params: organizationIdParams,
        response: { 200: appKeystore, ...errorResponses },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const form = await readKeystoreForm(request);
      return keystores.putForApp(actor.userId, request.params.id, form.input, form.file, form.fileName);
    },
  );

  routes.get(
    "/api/orgs-keystore/:id/",
    {
      schema: {
        tags,
        summary: "The organization's Android keystore, used by its apps without one of their own",
        params: organizationIdParams,
        response: { 200: organizationKeystore, ...errorResponses },
      },
    },
    async (request) => keystores.getForOrganization(requireActiveActor(request).userId, request.params.id),
  );

  routes.put(
    "/api/orgs-keystore/:id/",
    {
      schema: {
        tags,
        summary: "Set the organization's Android keystore (multipart, the fields of app-keystore)",
        params: organizationIdParams,
        response: { 200: organizationKeystore, ...errorResponses },
      },
    },
    async (request) => {
      const actor = requireActiveActor(request);
      const form = await readKeystoreForm(request);
      return keystores.putForOrganization(
        actor.userId,
        request.params.id,
        form.input,
        form.file,
        form.fileName,
      );
    },
  );

  routes.get(
    "/api/app-resign-aab-build/",
    {
      schema: {
        tags,
        summary: "The latest signing task of an Android build and whether its signed APK exists",
        querystring: resignAndroidBuildQuery,
        response: { 200: androidBuildSigning, ...errorResponses },
      },
    },
    async (request) => signing.get(requireActiveActor(request).userId, request.query.build_id),
  );

  routes.post(
    "/api/app-resign-aab-build/",
    {
      schema: {
        tags,
        summary:
          "Sign an Android build with the app's key (an AAB is converted to a universal APK first); 202 with the task, polled at /api/upload-task-result/{id}/",
        body: resignAndroidBuildInput,
        response: { 202: taskAccepted, ...errorResponses },
      },
    },
    async (request, reply) => {
      const task = await signing.start(requireActiveActor(request).userId, request.body.build_id);
      return reply.status(202).send(task);
    },
  );
}
