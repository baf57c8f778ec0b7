import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * The CSP for the web app. Mantine writes inline styles, so style-src allows them; scripts come
 * only from the app itself and, when configured, the tag manager.
 */
export function contentSecurityPolicy(tagManager: boolean, https: boolean): Record<string, string[] | null> {
  const tagManagerHosts = tagManager
    ? ["https://www.googletagmanager.com", "https://www.google-analytics.com"]
    : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...tagManagerHosts],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", ...tagManagerHosts],
    connectSrc: ["'self'", ...tagManagerHosts],
    fontSrc: ["'self'", "data:"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    // On plain HTTP (a LAN install) upgrading subresources to HTTPS would break every asset.
    upgradeInsecureRequests: https ? [] : null,
  };
}

/**
 * The security headers of every answer (helmet's, with the CSP above). They depend on nothing
 * in the request, so they are worked out once at start-up and copied onto each reply: building
 * helmet's middleware per request, as its Fastify plugin does, re-parsed the CSP every time.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { tagManager: boolean; https: boolean },
) {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: { directives: contentSecurityPolicy(options.tagManager, options.https) },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
