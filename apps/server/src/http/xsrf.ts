import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { xsrfCookieName, xsrfHeaderName } from "./auth.ts";
import { AppError } from "./errors.ts";

/**
 * Some GET endpoints of the API change state (?newsdkkey=1, ?newapikey=1, ?resend=1,
 * ?sendemaillimit=1, disable2fa). A cross-site page can make a browser send such a GET with its
 * cookie, so when the cookie is what authenticates, they need the XSRF header like a POST.
 */
export function requireXsrfForCookieAuth(request: FastifyRequest): void {
  if (request.actor?.via !== "cookie") return;
  const header = request.headers[xsrfHeaderName];
  const cookie = request.cookies[xsrfCookieName];
  const ok =
    typeof header === "string" &&
    Boolean(cookie) &&
    header.length === cookie?.length &&
    timingSafeEqual(Buffer.from(header), Buffer.from(cookie));
  if (!ok) throw AppError.forbidden("CSRF Failed: XSRF token missing or incorrect.");
}
