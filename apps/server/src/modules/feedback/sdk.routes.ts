import {
  sdkFeedbackEnabled,
  sdkFeedbackReceipt,
  sdkKeys,
  sdkUpdateUrl,
  sdkVersionCheck,
  sdkVersionCheckResult,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../http/error-responses.ts";
import { readSmallFileForm } from "../../http/small-file-form.ts";
import { type FeedbackSubmitService, maxScreenshotBytes } from "./feedback-submit.service.ts";
import type { SdkService } from "./sdk.service.ts";

const tags = ["sdk"];

/**
 * What apps built with Updraft's open-source SDKs call, with their field names (docs/sdk-protocol.md).
 * No account: the app key and the organization's SDK key identify the app.
 */
export function registerSdkRoutes(
  app: FastifyInstance,
  deps: { sdk: SdkService; submissions: FeedbackSubmitService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { sdk, submissions } = deps;

  routes.post(
    "/api/check_last_version/",
    {
      schema: {
        tags,
        summary:
          "Is a newer build than the installed one (`version`: its build number) out, and may the app offer it",
        body: sdkVersionCheck,
        response: { 200: sdkVersionCheckResult, ...errorResponses },
      },
    },
    async (request) => sdk.checkLastVersion(request.body),
  );

  routes.post(
    "/api/get_last_version/",
    {
      schema: {
        tags,
        summary: "Where the phone installs the newest build: the app's install page",
        body: sdkKeys,
        response: { 200: sdkUpdateUrl, ...errorResponses },
      },
    },
    async (request) => sdk.getLastVersion(request.body),
  );

  routes.post(
    "/api/feedback-mobile-enabled/",
    {
      schema: {
        tags,
        summary: "Whether the app takes feedback; wrong keys answer the SDK's error lists",
        body: sdkKeys,
        response: { 200: sdkFeedbackEnabled, ...errorResponses },
      },
    },
    async (request) => sdk.feedbackEnabled(request.body),
  );

  routes.post(
    "/api/feedback-mobile/",
    {
      schema: {
        tags,
        summary:
          "A report from the app (multipart: `image`, `app_key`, `sdk_key`, `tag`, `description`, `email`, `build_version`, `system_version`, `device_name`, `device_uudid`, `navigation_stack`)",
        consumes: ["multipart/form-data"],
        response: { 201: sdkFeedbackReceipt, ...errorResponses },
      },
    },
    async (request, reply) => {
      const form = await readSmallFileForm(request, {
        image: { maxBytes: maxScreenshotBytes, tooLarge: "The screenshot is larger than 10 MB." },
      });
      reply.status(201);
      return submissions.submit(form, request.ip);
    },
  );
}
