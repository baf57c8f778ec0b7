import {
  sendToTestersInput,
  sendToTestersQuery,
  sendToTestersResult,
  testerMailPreview,
  testerRecipients,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { parseInput } from "../../http/parse-input.ts";
import type { RecipientPickerService } from "./recipient-picker.service.ts";
import type { SendBuildsService } from "./send-builds.service.ts";

const tags = ["testers"];
const errors = errorResponses;
const idParams = z.object({ id: z.coerce.number().int().positive() });

export function registerSendBuildsRoutes(
  app: FastifyInstance,
  deps: { sends: SendBuildsService; picker: RecipientPickerService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { sends } = deps;

  routes.get(
    "/api/app-teams/:id/",
    {
      schema: {
        tags,
        summary:
          "Recipients and builds to choose from (?ver= preselects a version); ?emulate_email=1 with the send payload as query previews the mail",
        params: idParams,
        querystring: sendToTestersQuery,
        response: { 200: z.union([testerRecipients, testerMailPreview]), ...errors },
      },
    },
    async (request) => {
      const { userId } = requireActiveActor(request);
      const { ver, emulate_email, ...payload } = request.query;
      if (emulate_email) {
        return sends.preview(
          userId,
          request.params.id,
          parseInput(sendToTestersInput, withoutUndefined(payload)),
        );
      }
      return deps.picker.recipients(userId, request.params.id, ver);
    },
  );

  routes.post(
    "/api/app-teams/:id/",
    {
      schema: {
        tags,
        summary: "E-mail install links of the chosen builds to the chosen recipients",
        params: idParams,
        body: sendToTestersInput,
        response: { 202: sendToTestersResult, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireActiveActor(request);
      const result = await sends.send(userId, request.params.id, request.body);
      return reply.status(202).send(result);
    },
  );
}

function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
