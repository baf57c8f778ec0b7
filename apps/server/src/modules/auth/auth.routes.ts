import {
  activateInput,
  activationCodeParams,
  activationInfo,
  detailResponse,
  inviteInput,
  loginInput,
  loginQuery,
  loginResponse,
  passwordChangeInput,
  passwordUpdateInput,
  registerInput,
  reinviteInput,
  tokenResponse,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  type CookieOptions,
  requireActiveActor,
  requireActor,
  setSessionCookie,
  tokenCookieName,
} from "../../http/auth.ts";
import { AppError } from "../../http/errors.ts";
import { assertSignedIn } from "../../http/signed-in.ts";
import type { AccountService } from "./account.service.ts";
import type { LoginService } from "./login.service.ts";
import { type PasswordService, resetRequestedMessage } from "./password.service.ts";

export interface AuthRouteDeps {
  accounts: AccountService;
  login: LoginService;
  passwords: PasswordService;
  cookies: CookieOptions;
}

const tags = ["auth"];

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signIn = (reply: FastifyReply, session: { token: string; expiresAt: Date }) => {
    setSessionCookie(reply, deps.cookies, session.token, session.expiresAt);
    return { token: session.token };
  };
  const clearTokenCookie = (reply: FastifyReply) =>
    reply.clearCookie(tokenCookieName(deps.cookies.cookieDomain), {
      path: "/",
      ...(deps.cookies.cookieDomain ? { domain: deps.cookies.cookieDomain } : {}),
    });

  r.post("/api/user/register/", {
    schema: { tags, summary: "Create an account", body: registerInput, response: { 201: tokenResponse } },
    handler: async (request, reply) => {
      const { email, password, first_name, last_name } = request.body;
      const session = await deps.accounts.register({
        email,
        password,
        firstName: first_name,
        lastName: last_name,
      });
      return reply.status(201).send(signIn(reply, session));
    },
  });

  r.get("/api/user/activate/:code/", {
    schema: {
      tags,
      summary: "Describe an activation or invitation code",
      params: activationCodeParams,
      response: { 200: activationInfo },
    },
    handler: async (request) => {
      const info = await deps.accounts.describeCode(request.params.code);
      return {
        email: info.email,
        kind: info.kind,
        requires_password: info.requiresPassword,
        first_name: info.firstName,
        last_name: info.lastName,
      };
    },
  });

  r.post("/api/user/activate/:code/", {
    schema: {
      tags,
      summary: "Use an activation or invitation code",
      params: activationCodeParams,
      body: activateInput,
      response: { 200: tokenResponse },
    },
    handler: async (request, reply) => {
      const body = request.body ?? {};
      const session = await deps.accounts.activate(request.params.code, {
        password: body.password,
        firstName: body.first_name,
        lastName: body.last_name,
      });
      return signIn(reply, session);
    },
  });

  r.post("/api/user/login/", {
    schema: {
      tags,
      summary: "Sign in",
      querystring: loginQuery,
      body: loginInput,
      response: { 200: loginResponse },
    },
    handler: async (request, reply) => {
      const result = await deps.login.login({
        email: (request.body.email ?? request.body.username) as string,
        password: request.body.password,
        otp: request.body.otp ?? request.body.token,
        mobileApp: request.query.m === "1",
        clientAddress: request.ip,
      });
      if (result.kind === "mobile_only") return { mobile_only: true as const };
      if (result.kind === "two_factor_required") return { two_factor_required: true as const };
      return signIn(reply, result);
    },
  });

  r.post("/api/user/logout/", {
    schema: { tags, summary: "Sign out: revoke the presented token" },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      await deps.login.logout(actor.tokenId);
      clearTokenCookie(reply);
      return reply.status(204).send();
    },
  });

  r.post("/api/user/logout/everywhere/", {
    schema: {
      tags,
      summary: "Sign out everywhere: end every session, this one included, and revoke the API keys",
    },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      await deps.login.logoutEverywhere(actor.userId);
      clearTokenCookie(reply);
      return reply.status(204).send();
    },
  });

  r.post("/api/user/password/update/", {
    schema: {
      tags,
      summary: "Request a reset code, or set a new password with one",
      body: passwordUpdateInput,
      response: { 200: detailResponse },
    },
    handler: async (request) => {
      const { email, code, password } = request.body;
      if (code !== undefined) {
        if (!password) throw AppError.validation({ password: ["This field is required."] });
        await deps.passwords.confirmReset(code, password, { revokeApiKeys: request.body.revoke_api_keys });
        return { detail: "Your password has been set. Sign in with the new password." };
      }
      if (!email) throw AppError.validation({ email: ["This field is required."] });
      await deps.passwords.requestReset(email, request.ip);
      return { detail: resetRequestedMessage };
    },
  });

  r.post("/api/user/password/change/", {
    preValidation: assertSignedIn,
    schema: {
      tags,
      summary: "Change the password",
      body: passwordChangeInput,
      response: { 200: detailResponse },
    },
    handler: async (request) => {
      const actor = requireActor(request);
      await deps.passwords.change(
        actor.userId,
        actor.tokenId,
        request.body.old_password,
        request.body.new_password,
      );
      return { detail: "Your password has been changed." };
    },
  });

  r.post("/api/user/reinvite/", {
    schema: {
      tags,
      summary: "Resend the activation or invitation e-mail",
      body: reinviteInput,
      response: { 200: detailResponse },
    },
    handler: async (request) => {
      await deps.accounts.reinvite(request.body.email);
      return { detail: "If the address has a pending activation or invitation, a new e-mail is on its way." };
    },
  });

  r.post("/api/user/invite/", {
    preValidation: assertSignedIn,
    schema: {
      tags,
      summary: "Invite someone to Tarmac",
      body: inviteInput,
      response: { 201: detailResponse },
    },
    handler: async (request, reply) => {
      const actor = requireActiveActor(request);
      await deps.accounts.inviteNew({
        email: request.body.email,
        firstName: request.body.first_name,
        lastName: request.body.last_name,
        invitedByUserId: actor.userId,
      });
      return reply.status(201).send({ detail: "The invitation has been sent." });
    },
  });
}
