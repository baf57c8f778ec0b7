import {
  ssoLinkConfirmation,
  ssoLinkRequest,
  ssoLinkStartInput,
  ssoLinks,
  ssoRedirect,
  ssoSecondFactorInput,
  ssoSecondFactorResult,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { type CookieOptions, requireActiveActor, setSessionCookie } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import type { SsoLinksService } from "./sso-links.service.ts";
import type { SecondFactorTickets } from "./sso-second-factor.service.ts";

const tags = ["single sign-on"];
const codeParams = z.object({ code: z.string().min(20).max(200) });
const organizationParams = z.object({ organization: z.coerce.number().int().positive() });

/** A person's own side of single sign-on: links, mailed link requests, the second factor. */
export function registerSsoAccountRoutes(
  app: FastifyInstance,
  deps: { links: SsoLinksService; tickets: SecondFactorTickets; cookies: CookieOptions },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { links, tickets } = deps;

  routes.get(
    "/api/sso/links/",
    {
      schema: {
        tags,
        summary: "Organizations whose sign-in may open your account, and the one you may link",
        response: { 200: ssoLinks, ...errorResponses },
      },
    },
    async (request) => links.list(requireActiveActor(request).userId),
  );

  routes.post(
    "/api/sso/links/start/",
    {
      schema: {
        tags,
        summary:
          "Link your account (password session) to the sign-in of the organization that proved your domain",
        body: ssoLinkStartInput,
        response: { 200: ssoRedirect, ...errorResponses },
      },
    },
    async (request) => links.start(requireActiveActor(request), request.body.organization, request.ip),
  );

  routes.delete(
    "/api/sso/links/:organization/",
    {
      schema: {
        tags,
        summary: "Unlink an organization's sign-in from your account",
        params: organizationParams,
        response: { 204: z.null().describe("No content"), ...errorResponses },
      },
    },
    async (request, reply) => {
      await links.unlink(requireActiveActor(request).userId, request.params.organization);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    "/api/sso/link-requests/:code/",
    {
      schema: {
        tags,
        summary: "What a mailed link offers to link",
        params: codeParams,
        response: { 200: ssoLinkRequest, ...errorResponses },
      },
    },
    async (request) => links.describeRequest(request.params.code),
  );

  routes.post(
    "/api/sso/link-requests/:code/",
    {
      schema: {
        tags,
        summary: "Confirm a mailed link: the organization's sign-in opens your account from now on",
        params: codeParams,
        response: { 200: ssoLinkConfirmation, ...errorResponses },
      },
    },
    async (request) => links.confirmRequest(request.params.code),
  );

  routes.post(
    "/api/sso/second-factor/",
    {
      schema: {
        tags,
        summary: "Finish a single sign-on with the account's own second factor",
        body: ssoSecondFactorInput,
        response: { 200: ssoSecondFactorResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      const session = await tickets.finish(request.body.ticket, request.body.otp);
      setSessionCookie(reply, deps.cookies, session.token, session.expiresAt);
      return { token: session.token, next: session.nextPath };
    },
  );
}
