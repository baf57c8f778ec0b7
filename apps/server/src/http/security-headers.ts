import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

export interface ContentSecurityOptions {
  /** A tag manager container is configured. */
  tagManager: boolean;
  /** The public URL is HTTPS. */
  https: boolean;
  /** Stripe is configured: the card form loads Stripe.js, which draws its fields in its own frames. */
  stripe: boolean;
}

/**
 * The CSP for the web app. Mantine writes inline styles, so style-src allows them; scripts come
 * only from the app itself and, when configured, the tag manager and Stripe.js. Stripe's hosts
 * are the ones Stripe documents for card Elements: the script and its frames from js.stripe.com,
 * 3-D Secure challenges framed from hooks.stripe.com, its API calls to api.stripe.com.
 */
export function contentSecurityPolicy(options: ContentSecurityOptions): Record<string, string[] | null> {
  const tagManagerHosts = options.tagManager
    ? ["https://www.googletagmanager.com", "https://www.google-analytics.com"]
    : [];
  const stripeScript = options.stripe ? ["https://js.stripe.com"] : [];
  const stripeFrames = options.stripe ? ["https://js.stripe.com", "https://hooks.stripe.com"] : [];
  const stripeApi = options.stripe ? ["https://api.stripe.com"] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...tagManagerHosts, ...stripeScript],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", ...tagManagerHosts],
    connectSrc: ["'self'", ...tagManagerHosts, ...stripeApi],
    frameSrc: ["'self'", ...stripeFrames],
    fontSrc: ["'self'", "data:"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    // On plain HTTP (a LAN install) upgrading subresources to HTTPS would break every asset.
    upgradeInsecureRequests: options.https ? [] : null,
  };
}

/**
 * The security headers of every answer (helmet's, with the CSP above). They depend on nothing
 * in the request, so they are worked out once at start-up and copied onto each reply: building
 * helmet's middleware per request, as its Fastify plugin does, re-parsed the CSP every time.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: ContentSecurityOptions) {
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
    contentSecurityPolicy: { directives: contentSecurityPolicy(options) },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
