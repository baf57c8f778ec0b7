import {
  oidcSettings,
  oidcSettingsInput,
  organizationIdParams,
  ssoCheck,
  ssoSession,
  ssoSessionRevokeInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../config.ts";
import { cookieOptionsOf, requireActiveActor, setSessionCookie } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import type { OidcSettingsService } from "./oidc-settings.service.ts";
import { SsoLoginError, type SsoLoginService } from "./sso-login.service.ts";
import type { SsoSessionsService } from "./sso-sessions.service.ts";

const tags = ["single sign-on"];

export function registerSsoRoutes(
  app: FastifyInstance,
  deps: { oidc: OidcSettingsService; logins: SsoLoginService; sessions: SsoSessionsService; config: Config },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { oidc, logins, sessions, config } = deps;
  const cookies = cookieOptionsOf(config);
  /** The sign-in page shows what went wrong; nothing else about the organization leaks. */
  const failed = (reason: string) => `${config.PUBLIC_URL}/login-custom-client?sso_error=${reason}`;

  routes.get(
    "/api/orgs-oidc/:id/",
    {
      schema: {
        tags,
        summary: "The organization's OpenID Connect sign-in (the client secret is never sent back)",
        params: organizationIdParams,
        response: { 200: oidcSettings, ...errorResponses },
      },
    },
    async (request) => oidc.get(requireActiveActor(request).userId, request.params.id),
  );

  routes.patch(
    "/api/orgs-oidc/:id/",
    {
      schema: {
        tags,
        summary: "Set up OpenID Connect; an enabled provider's configuration is read before saving",
        params: organizationIdParams,
        body: oidcSettingsInput,
        response: { 200: oidcSettings, ...errorResponses },
      },
    },
    async (request) => oidc.patch(requireActiveActor(request).userId, request.params.id, request.body),
  );

  routes.post(
    "/api/orgs-oidc/:id/clear/",
    {
      schema: {
        tags,
        summary: "Remove the OpenID Connect sign-in (and the SSO requirement)",
        params: organizationIdParams,
        response: { 200: oidcSettings, ...errorResponses },
      },
    },
    async (request) => oidc.clear(requireActiveActor(request).userId, request.params.id),
  );

  routes.get(
    "/api/orgs-sso-sessions/:id/",
    {
      schema: {
        tags,
        summary: "People holding sessions the organization's single sign-on made (admins)",
        params: organizationIdParams,
        response: { 200: z.array(ssoSession), ...errorResponses },
      },
    },
    async (request) => sessions.list(requireActiveActor(request).userId, request.params.id),
  );

  routes.post(
    "/api/orgs-sso-sessions/:id/revoke/",
    {
      schema: {
        tags,
        summary: "End a person's sessions made by the organization's single sign-on",
        params: organizationIdParams,
        body: ssoSessionRevokeInput,
        response: { 200: z.object({ revoked: z.number().int() }), ...errorResponses },
      },
    },
    async (request) =>
      sessions.revoke(requireActiveActor(request).userId, request.params.id, request.body.user),
  );

  routes.get(
    "/api/check_sso/:value/",
    {
      schema: {
        tags,
        summary: "Whether the organization of an e-mail address (or domain) signs in with SSO",
        params: z.object({ value: z.string().max(320) }),
        response: { 200: ssoCheck },
      },
    },
    async (request) => logins.checkByValue(request.params.value),
  );

  routes.get(
    "/api/check_sso_by_name/:name/",
    {
      schema: {
        tags,
        summary: "Whether the organization with this subdomain signs in with SSO",
        params: z.object({ name: z.string().max(63) }),
        response: { 200: ssoCheck },
      },
    },
    async (request) => logins.checkByName(request.params.name),
  );

  routes.get(
    "/api/sso/:subdomain/start/",
    {
      schema: {
        tags,
        summary: "Leave for the organization's identity provider (302)",
        params: z.object({ subdomain: z.string().max(63) }),
        querystring: z.object({
          next: z.string().max(2000).optional(),
          login_hint: z.string().max(320).optional(),
        }),
      },
    },
    async (request, reply) => {
      try {
        const url = await logins.start(
          request.params.subdomain,
          request.query.next,
          request.query.login_hint,
        );
        return reply.redirect(url.toString(), 302);
      } catch (error) {
        if (error instanceof SsoLoginError) return reply.redirect(failed(error.reason), 302);
        request.log.warn({ err: error }, "single sign-on could not start");
        return reply.redirect(failed("provider"), 302);
      }
    },
  );

  routes.get(
    "/api/sso/oidc/callback/",
    { schema: { tags, summary: "The identity provider sends the browser back here (302 into the app)" } },
    async (request, reply) => {
      try {
        const callback = new URL(request.url, config.PUBLIC_URL);
        const session = await logins.finish(callback);
        setSessionCookie(reply, cookies, session.token, session.expiresAt);
        return reply.redirect(`${config.PUBLIC_URL}${session.nextPath}`, 302);
      } catch (error) {
        if (error instanceof SsoLoginError) return reply.redirect(failed(error.reason), 302);
        request.log.warn({ err: error }, "single sign-on could not finish");
        return reply.redirect(failed("provider"), 302);
      }
    },
  );
}
