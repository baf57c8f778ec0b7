import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../http/errors.ts";
import { serverPath } from "../../platform/server-root.ts";
import { applyPageHead, type DescribePage } from "./page-head.ts";

export const defaultWebDistDir = serverPath("..", "web", "dist");
const webPublicDir = serverPath("..", "web", "public");
const languages = new Set(["en", "de", "ru"]);

export interface ClientConfig {
  gtm_container_id: string | null;
  cookie_domain: string;
  public_url: string;
}

/** Puts the runtime configuration into index.html, so one build serves every deployment. */
export function injectClientConfig(html: string, config: ClientConfig): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return html.replace(
    "<!--tarmac-config-->",
    `<script id="tarmac-config" type="application/json">${json}</script>`,
  );
}

/** The signed-in area is not shared as a link; its pages keep the build's plain head. */
function isPublicPage(path: string): boolean {
  return !/^\/dashboard(\/|$)/.test(path);
}

function wantsHtml(request: FastifyRequest): boolean {
  return request.method === "GET" && !request.url.startsWith("/api/") && !request.url.startsWith("/media/");
}

/**
 * Hosts the built single-page app: hashed assets with long caching, translations, and
 * index.html for every client-side route (the app itself sends unknown paths to /not-found).
 */
export async function registerWebHost(
  app: FastifyInstance,
  options: { distDir: string; client: ClientConfig; describePage?: DescribePage },
) {
  const indexFile = path.join(options.distDir, "index.html");
  const indexHtml = existsSync(indexFile)
    ? injectClientConfig(readFileSync(indexFile, "utf8"), options.client)
    : null;

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!indexHtml) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The web app is not built. Run `npm run build` (npm install does it once).");
    }
    const path = request.url.replace(/[?#].*$/, "");
    const head =
      options.describePage && isPublicPage(path)
        ? await options.describePage(path, {
            lang: (request.query as { lang?: string } | undefined)?.lang,
            acceptLanguage: request.headers["accept-language"],
          })
        : null;
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("vary", "Accept-Language")
      .send(head ? applyPageHead(indexHtml, head) : indexHtml);
  };

  app.get("/media/i18n/:file", { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const lang = /^([a-z]{2})\.json$/.exec(file)?.[1];
    if (!lang || !languages.has(lang)) throw AppError.notFound();
    const candidates = [
      path.join(options.distDir, "media/i18n", file),
      path.join(webPublicDir, "media/i18n", file),
    ];
    const found = candidates.find((candidate) => existsSync(candidate));
    if (!found) throw AppError.notFound();
    return reply
      .type("application/json; charset=utf-8")
      .header("cache-control", "no-cache")
      .send(readFileSync(found));
  });

  app.get("/", { schema: { hide: true } }, async (request, reply) => sendIndex(request, reply));
  app.get("/index.html", { schema: { hide: true } }, async (request, reply) => sendIndex(request, reply));

  if (existsSync(options.distDir)) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      wildcard: true,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (wantsHtml(request)) return sendIndex(request, reply);
    return reply.status(404).send({ detail: "Not found." });
  });
}
