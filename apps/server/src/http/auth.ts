import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";
import { AppError } from "./errors.ts";

export interface Actor {
  userId: number;
  email: string;
  tokenId: number;
  tokenKind: "session" | "api_key";
  /** How the token came: a header cannot be forged cross-site, a cookie can (hence XSRF). */
  via: "header" | "cookie";
  /**
   * Listed in ADMIN_EMAILS, activated, and signed in by the account's own password (and second
   * factor): an unconfirmed address proves nothing about its owner, and an organization's
   * identity provider never vouches for an administrator.
   */
  isInstanceAdmin: boolean;
  /** The organization whose single sign-on made the token; null for a password sign-in. */
  ssoOrganizationId: number | null;
  /** False until the e-mail address is confirmed; such accounts may not act in organizations. */
  isActive: boolean;
  /** Whether the account signs in with a second factor. */
  twoFactorEnabled: boolean;
  /**
   * Every live membership of the user, read in the token's own statement: a read-only request
   * then checks its organization without another round trip. Absent when the user has too many
   * to carry along; a request that changes memberships reads them anew.
   */
  memberships?: readonly ActorMembership[];
}

/** One of the actor's memberships, with its organization's versions as of the token's read. */
export interface ActorMembership {
  membershipId: number;
  organizationId: number;
  userId: number;
  role: number;
  /** The organization's catalog version (apps, builds, projects): validates kept app lists. */
  catalogVersion: number;
  /** The organization's directory version (people, teams, testers): validates kept people lists. */
  directoryVersion: number;
}

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export const xsrfCookieName = "XSRF-TOKEN";
export const xsrfHeaderName = "x-xsrf-token";
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/** The spec's token cookie: its name carries the cookie domain so several deployments can share a parent domain. */
export function tokenCookieName(cookieDomain: string): string {
  return cookieDomain ? `tarmac_token_${cookieDomain.replace(/[^A-Za-z0-9]/g, "_")}` : "tarmac_token";
}

function readPresentedToken(
  request: FastifyRequest,
  cookieName: string,
): { token: string; via: Actor["via"] } | null {
  const header = request.headers.authorization;
  if (header) {
    const match = /^(?:Token|Bearer)\s+(\S+)$/i.exec(header);
    return match?.[1] ? { token: match[1], via: "header" } : null;
  }
  const cookie = request.cookies[cookieName];
  return cookie ? { token: cookie, via: "cookie" } : null;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Resolves a presented secret to its live token and user (the users module's token service). */
export interface TokenResolver {
  resolve(token: string): Promise<{
    tokenId: number;
    kind: "session" | "api_key";
    userId: number;
    email: string;
    isActive: boolean;
    twoFactorEnabled: boolean;
    ssoOrganizationId: number | null;
    memberships?: readonly ActorMembership[];
  } | null>;
}

export interface CookieOptions {
  cookieDomain: string;
  secureCookies: boolean;
}

export function cookieOptionsOf(config: Pick<Config, "COOKIE_DOMAIN" | "PUBLIC_URL">): CookieOptions {
  return { cookieDomain: config.COOKIE_DOMAIN, secureCookies: config.PUBLIC_URL.startsWith("https://") };
}

export interface AuthOptions extends CookieOptions {
  tokens: TokenResolver;
  adminEmails: string[];
}

/**
 * Resolves the actor of every API request and enforces the XSRF double-submit rule for
 * cookie-authenticated writes. Routes then ask for what they need with requireActor().
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const cookieName = tokenCookieName(options.cookieDomain);
  const admins = new Set(options.adminEmails);
  app.decorateRequest("actor", null);

  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/")) return;
    const presented = readPresentedToken(request, cookieName);
    if (!presented) return;
    const resolved = await options.tokens.resolve(presented.token);
    if (!resolved) {
      // A bad header is an error; a stale cookie just means "not signed in".
      if (presented.via === "header") throw AppError.unauthorized("Invalid token.");
      return;
    }
    if (presented.via === "cookie" && !safeMethods.has(request.method)) {
      const header = request.headers[xsrfHeaderName];
      const cookie = request.cookies[xsrfCookieName];
      if (typeof header !== "string" || !cookie || !sameSecret(header, cookie)) {
        throw AppError.forbidden("CSRF Failed: XSRF token missing or incorrect.");
      }
    }
    request.actor = {
      userId: resolved.userId,
      email: resolved.email,
      tokenId: resolved.tokenId,
      tokenKind: resolved.kind,
      via: presented.via,
      isInstanceAdmin:
        resolved.isActive && resolved.ssoOrganizationId === null && admins.has(resolved.email.toLowerCase()),
      ssoOrganizationId: resolved.ssoOrganizationId,
      isActive: resolved.isActive,
      twoFactorEnabled: resolved.twoFactorEnabled,
      memberships: resolved.memberships,
    };
  });

  // Hands every browser an XSRF cookie to echo back; it is readable by script on purpose. A
  // caller that signs with the Authorization header (CI, scripts, SDKs) is never asked for one.
  app.addHook("onSend", async (request, reply) => {
    if (request.cookies?.[xsrfCookieName] || request.actor?.via === "header") return;
    reply.setCookie(xsrfCookieName, randomBytes(24).toString("base64url"), {
      path: "/",
      sameSite: "lax",
      secure: options.secureCookies,
      httpOnly: false,
    });
  });
}

export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw AppError.unauthorized();
  return request.actor;
}

/** For every organization action: the account must be activated (see docs/decisions.md). */
export function requireActiveActor(request: FastifyRequest): Actor {
  const actor = requireActor(request);
  if (!actor.isActive) {
    throw new AppError(
      "inactive_account",
      403,
      "Activate your account first: check your e-mail for the activation link.",
    );
  }
  return actor;
}

/**
 * Instance administration needs an activated account listed in ADMIN_EMAILS. An administrator
 * who turned on two-factor authentication acts only through a session that passed it: an API
 * key (made for CI) cannot read the outbox's reset codes of other people.
 */
export function requireInstanceAdmin(request: FastifyRequest): Actor {
  const actor = requireActor(request);
  if (!actor.isInstanceAdmin) throw AppError.forbidden();
  if (actor.twoFactorEnabled && actor.tokenKind === "api_key") {
    throw AppError.forbidden("Sign in with your password and second factor to use administration.");
  }
  return actor;
}

/** Sets the token cookie after a login (14 days, same lifetime as the server-side session). */
export function setSessionCookie(
  reply: FastifyReply,
  options: CookieOptions,
  token: string,
  expiresAt: Date,
): void {
  reply.setCookie(tokenCookieName(options.cookieDomain), token, {
    path: "/",
    sameSite: "lax",
    secure: options.secureCookies,
    httpOnly: false, // the web client reads it to send the Authorization header (spec §4)
    expires: expiresAt,
    ...(options.cookieDomain ? { domain: options.cookieDomain } : {}),
  });
}
