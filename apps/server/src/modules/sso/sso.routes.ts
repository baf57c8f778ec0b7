import {
  oidcSettings,
  oidcSettingsInput,
  organizationIdParams,
  samlKinds,
  samlMetadataFields,
  samlSettings,
  samlSettingsFields,
  ssoCheck,
  ssoSession,
  ssoSessionRevokeInput,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../config.ts";
import { cookieOptionsOf, requireActiveActor, setSessionCookie } from "../../http/auth.ts";
import { errorResponses } from "../../http/error-responses.ts";
import { parseInput } from "../../http/parse-input.ts";
import { readSmallFileForm } from "../../http/small-file-form.ts";
import { ThrottleError } from "../../http/throttle/throttle.ts";
import type { OidcSettingsService } from "./oidc-settings.service.ts";
import { maxMetadataBytes, type SamlSettingsService } from "./saml-settings.service.ts";
import type { SsoOutcome } from "./sso-admission.service.ts";
import type { SsoDirectory } from "./sso-directory.service.ts";
import { SsoLoginError, type SsoLoginService } from "./sso-login.service.ts";
import type { SsoSessionsService } from "./sso-sessions.service.ts";

const tags = ["single sign-on"];

export async function registerSsoRoutes(
  app: FastifyInstance,
  deps: {
    oidc: OidcSettingsService;
    saml: SamlSettingsService;
    logins: SsoLoginService;
    directory: SsoDirectory;
    sessions: SsoSessionsService;
    config: Config;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { oidc, saml, logins, directory, sessions, config } = deps;
  const cookies = cookieOptionsOf(config);
  /** The sign-in page shows what went wrong; nothing else about the organization leaks. */
  const failed = (reason: string) => `${config.PUBLIC_URL}/login-custom-client?sso_error=${reason}`;
  /** Where the browser goes once the provider answered: in, to the second factor, or back to its profile. */
  const followOutcome = (reply: FastifyReply, outcome: SsoOutcome) => {
    if (outcome.kind === "second_factor") {
      return reply.redirect(
        `${config.PUBLIC_URL}/login-custom-client?sso_second_factor=${encodeURIComponent(outcome.ticket)}`,
        302,
      );
    }
    if (outcome.kind === "session") setSessionCookie(reply, cookies, outcome.token, outcome.expiresAt);
    return reply.redirect(`${config.PUBLIC_URL}${outcome.nextPath}`, 302);
  };
  /**
   * A failed browser step: the sign-in page says why. The browser navigated here (or the IdP's
   * form posted here), so even a throttled step answers with the page, Retry-After attached.
   */
  const failBrowserStep = (request: FastifyRequest, reply: FastifyReply, error: unknown, what: string) => {
    if (error instanceof SsoLoginError) return reply.redirect(failed(error.reason), 302);
    if (error instanceof ThrottleError) {
      return reply.header("retry-after", String(error.retryAfterSeconds)).redirect(failed("throttled"), 302);
    }
    request.log.warn({ err: error }, what);
    return reply.redirect(failed("provider"), 302);
  };

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

  for (const kind of samlKinds) {
    routes.get(
      `/api/orgs-sso-${kind}/:id/`,
      {
        schema: {
          tags,
          summary: `The organization's ${kind} SAML identity provider (the SP private key is never sent back)`,
          params: organizationIdParams,
          response: { 200: samlSettings, ...errorResponses },
        },
      },
      async (request) => saml.get(requireActiveActor(request).userId, request.params.id, kind),
    );
    routes.put(
      `/api/orgs-sso-${kind}/:id/`,
      {
        schema: {
          tags,
          summary: `Set up ${kind} SAML (multipart: ${samlMetadataFields[kind]} or metadata_url, certificate_file, private_key_file; an empty file clears it)`,
          params: organizationIdParams,
          consumes: ["multipart/form-data"],
          response: { 200: samlSettings, ...errorResponses },
        },
      },
      async (request) => {
        const actor = requireActiveActor(request);
        const metadataField = samlMetadataFields[kind];
        const form = await readSmallFileForm(request, {
          [metadataField]: { maxBytes: maxMetadataBytes, tooLarge: "The metadata is larger than 1 MB." },
          certificate_file: { maxBytes: 64 * 1024, tooLarge: "The certificate is larger than 64 KB." },
          private_key_file: { maxBytes: 64 * 1024, tooLarge: "The private key is larger than 64 KB." },
        });
        const fields = parseInput(samlSettingsFields, form.fields);
        return saml.put(actor.userId, request.params.id, kind, fields, {
          ...(form.files[metadataField] ? { metadata: form.files[metadataField] } : {}),
          ...(form.files.certificate_file ? { certificate: form.files.certificate_file } : {}),
          ...(form.files.private_key_file ? { privateKey: form.files.private_key_file } : {}),
        });
      },
    );
  }

  routes.get(
    "/api/sso/saml/:id/metadata/",
    {
      schema: {
        tags,
        summary: "This organization's SAML service provider metadata, for its IdP",
        params: organizationIdParams,
      },
    },
    async (request, reply) => {
      const xml = await logins.samlMetadata(request.params.id);
      return reply.type("application/samlmetadata+xml").send(xml);
    },
  );

  // The IdP posts an HTML form here: url-encoded bodies are read for this route only.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 512 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/sso/saml/:id/acs/",
      {
        schema: {
          tags,
          summary: "The identity provider posts the SAML response here (302 into the app)",
          params: organizationIdParams,
          body: z.object({
            SAMLResponse: z.string().max(400_000).optional(),
            RelayState: z.string().max(200).optional(),
          }),
        },
      },
      async (request, reply) => {
        try {
          return followOutcome(reply, await logins.finishSaml(request.params.id, request.body, request.ip));
        } catch (error) {
          return failBrowserStep(request, reply, error, "SAML sign-in could not finish");
        }
      },
    );
  });

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
    async (request) => directory.checkByValue(request.params.value),
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
    async (request) => directory.checkByName(request.params.name),
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
        const url = await logins.start(request.params.subdomain, {
          ...(request.query.next ? { next: request.query.next } : {}),
          ...(request.query.login_hint ? { loginHint: request.query.login_hint } : {}),
          clientAddress: request.ip,
        });
        return reply.redirect(url.toString(), 302);
      } catch (error) {
        return failBrowserStep(request, reply, error, "single sign-on could not start");
      }
    },
  );

  routes.get(
    "/api/sso/oidc/callback/",
    { schema: { tags, summary: "The identity provider sends the browser back here (302 into the app)" } },
    async (request, reply) => {
      try {
        return followOutcome(reply, await logins.finish(new URL(request.url, config.PUBLIC_URL)));
      } catch (error) {
        return failBrowserStep(request, reply, error, "single sign-on could not finish");
      }
    },
  );
}
