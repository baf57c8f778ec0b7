import {
  apiKeyState,
  profile,
  profileDeleteInput,
  profileParams,
  profileQuery,
  profileUpdateInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActor } from "../../http/auth.ts";
import { assertSignedIn } from "../../http/signed-in.ts";
import type { TokenService } from "../users/token.service.ts";
import type { ProfileService } from "./profile.service.ts";

const tags = ["profile"];

export function registerProfileRoutes(
  app: FastifyInstance,
  deps: { profiles: ProfileService; tokens: Pick<TokenService, "hasApiKey"> },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get("/api/profiles/", {
    schema: {
      tags,
      summary: "The signed-in user's profile (a one-item list)",
      querystring: profileQuery,
      response: { 200: z.array(profile) },
    },
    handler: async (request) => {
      const { close_welcome, org, subdomain, s, full } = request.query;
      const actor = requireActor(request);
      const item = await deps.profiles.getProfile(actor.userId, {
        closeWelcome: close_welcome === "1" || close_welcome === "true",
        orgId: org,
        subdomain,
        search: s,
        full: full === "1" || full === "true",
      });
      return [{ ...item, is_instance_admin: actor.isInstanceAdmin }];
    },
  });

  r.get("/api/profiles/api-key/", {
    preValidation: assertSignedIn,
    schema: {
      tags,
      summary:
        "Whether the signed-in user holds an API key, so that replacing one can be told apart from a first",
      response: { 200: apiKeyState },
    },
    handler: async (request) => ({ has_api_key: await deps.tokens.hasApiKey(requireActor(request).userId) }),
  });

  r.put("/api/profiles/:user_id/", {
    preValidation: assertSignedIn,
    schema: {
      tags,
      summary: "Change one's own name",
      params: profileParams,
      body: profileUpdateInput,
      response: { 200: profile },
    },
    handler: async (request) => {
      const actor = requireActor(request);
      const item = await deps.profiles.updateName(actor.userId, request.params.user_id, {
        firstName: request.body.first_name,
        lastName: request.body.last_name,
      });
      return { ...item, is_instance_admin: actor.isInstanceAdmin };
    },
  });

  r.delete("/api/profiles/:user_id/", {
    preValidation: assertSignedIn,
    schema: {
      tags,
      summary: "Close one's own account (the id is 0, as the spec sends, or one's own)",
      params: profileParams,
      body: profileDeleteInput,
    },
    handler: async (request, reply) => {
      await deps.profiles.deleteAccount(
        requireActor(request).userId,
        request.params.user_id,
        request.body.password,
      );
      return reply.status(204).send();
    },
  });
}
