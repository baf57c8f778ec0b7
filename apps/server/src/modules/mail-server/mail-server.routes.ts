import { mailServer, mailServerInput, organizationIdParams } from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireActiveActor } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import type { MailServerService } from "./mail-server.service.ts";

const tags = ["organization mail server"];

/** `{id}` is the organization's id. Owners and admins only. */
export function registerMailServerRoutes(app: FastifyInstance, deps: { mailServers: MailServerService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { mailServers } = deps;

  routes.get(
    "/api/orgs-smtp/:id/",
    {
      schema: {
        tags,
        summary: "The organization's own mail server (the password is never sent back)",
        params: organizationIdParams,
        response: { 200: mailServer, ...errorResponses },
      },
    },
    async (request) => mailServers.get(requireActiveActor(request).userId, request.params.id),
  );

  routes.put(
    "/api/orgs-smtp/:id/",
    {
      schema: {
        tags,
        summary:
          "Send the organization's mail through its own server; an enabled server is connected to (and logged in to) before it is saved",
        params: organizationIdParams,
        body: mailServerInput,
        response: { 200: mailServer, ...errorResponses },
      },
    },
    async (request) => mailServers.put(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.post(
    "/api/orgs-smtp/:id/test/",
    {
      schema: {
        tags,
        summary:
          "Send a test mail to the caller through the saved server; 400 with the server's words on failure",
        params: organizationIdParams,
        response: { 200: z.object({ detail: z.string() }), ...errorResponses },
      },
    },
    async (request) => mailServers.test(requireActiveActor(request).userId, request.params.id),
  );
}
