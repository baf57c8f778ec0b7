import {
  blogPost,
  blogPostPage,
  blogQuery,
  contentLanguageQuery,
  contentPage,
  dashboardSetting,
  errorBody,
  faq,
  landingContent,
  menu,
  urlRedirect,
  urlRedirectQuery,
  whatsNewEntry,
  whatsNewList,
  whatsNewQuery,
} from "@tarmac/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendWithEtag } from "../../http/etag.ts";
import { pageParams, toPage } from "../../http/pagination.ts";
import type { ContentService, MenuKind } from "./content.service.ts";
import { feedTitles, renderAtom, renderRss } from "./content-feeds.ts";
import { resolveLanguage } from "./content-language.ts";

const tags = ["content"];

function languageOf(request: { query: { lang?: string }; headers: FastifyRequest["headers"] }) {
  return resolveLanguage(request.query.lang, request.headers["accept-language"]);
}

function sendContent(request: FastifyRequest, reply: FastifyReply, body: unknown) {
  return sendWithEtag(request, reply, JSON.stringify(body), {
    contentType: "application/json; charset=utf-8",
    vary: "Accept-Language",
  });
}

function publicRoute<Query extends z.ZodType, Response extends z.ZodType>(
  summary: string,
  response: Response,
  querystring: Query,
) {
  return {
    schema: { tags, summary, security: [], querystring, response: { 200: response, 404: errorBody } },
  };
}

export function registerContentRoutes(
  app: FastifyInstance,
  deps: { content: ContentService; publicUrl: string },
) {
  const { content } = deps;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    "/api/lp/",
    publicRoute("The promo landing page", landingContent, contentLanguageQuery),
    async (request, reply) => sendContent(request, reply, await content.getLanding(languageOf(request))),
  );

  for (const kind of ["main-menu", "footer-menu", "mobile-menu"] satisfies MenuKind[]) {
    typed.get(
      `/api/${kind}/`,
      publicRoute(`The ${kind.replace("-", " ")}`, menu, contentLanguageQuery),
      async (request, reply) => sendContent(request, reply, await content.getMenu(kind, languageOf(request))),
    );
  }

  for (const [path, kind, summary] of [
    ["/api/reg/", "reg", "Sign-up texts"],
    ["/api/page-sdk/", "page-sdk", "The SDK page"],
    ["/api/footer/", "footer", "The footer text"],
  ] as const) {
    typed.get(path, publicRoute(summary, contentPage, contentLanguageQuery), async (request, reply) =>
      sendContent(request, reply, await content.getPage(kind, languageOf(request))),
    );
  }

  typed.get(
    "/api/pages/:slug/",
    {
      schema: {
        ...publicRoute("A content page by slug", contentPage, contentLanguageQuery).schema,
        params: z.object({ slug: z.string().min(1).max(200) }),
      },
    },
    async (request, reply) =>
      sendContent(request, reply, await content.getPage("page", languageOf(request), request.params.slug)),
  );

  typed.get(
    "/api/whats-new/",
    publicRoute(
      "What's new: every entry, newest first; one entry with ?id=",
      whatsNewList.or(whatsNewEntry),
      whatsNewQuery,
    ),
    async (request, reply) => {
      const language = languageOf(request);
      const { id } = request.query;
      return sendContent(
        request,
        reply,
        id ? await content.getWhatsNew(id, language) : await content.listWhatsNew(language),
      );
    },
  );

  typed.get(
    "/api/dashboard-setting/",
    publicRoute("The dashboard's welcome panel and announcements", dashboardSetting, contentLanguageQuery),
    async (request, reply) =>
      sendContent(request, reply, await content.getDashboardSetting(languageOf(request))),
  );

  typed.get(
    "/api/faq/",
    publicRoute("Frequently asked questions", faq, contentLanguageQuery),
    async (request, reply) => sendContent(request, reply, await content.getFaq(languageOf(request))),
  );

  typed.get(
    "/api/url-redirect/",
    publicRoute("Where an old address moved to (404 when nowhere)", urlRedirect, urlRedirectQuery),
    async (request, reply) => sendContent(request, reply, await content.findRedirect(request.query.url_old)),
  );

  typed.get(
    "/api/blog/",
    publicRoute("Blog posts, newest first", blogPostPage, blogQuery),
    async (request, reply) => {
      const params = pageParams(request.query, 10);
      const { count, results } = await content.listBlog(languageOf(request), params.pageSize, params.offset);
      return sendContent(request, reply, toPage(request, deps.publicUrl, params, count, results));
    },
  );

  registerFeedRoutes(app, deps);

  typed.get(
    "/api/blog/:slug/",
    {
      schema: {
        ...publicRoute("A blog post by slug", blogPost, contentLanguageQuery).schema,
        params: z.object({ slug: z.string().min(1).max(200) }),
      },
    },
    async (request, reply) =>
      sendContent(request, reply, await content.getBlogPost(request.params.slug, languageOf(request))),
  );
}

function registerFeedRoutes(app: FastifyInstance, deps: { content: ContentService; publicUrl: string }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const siteUrl = deps.publicUrl.replace(/\/+$/, "");
  for (const format of ["rss", "atom"] as const) {
    typed.get(
      `/api/blog/${format}/`,
      {
        schema: {
          tags,
          summary: `The blog as an ${format === "rss" ? "RSS 2.0" : "Atom 1.0"} feed`,
          security: [],
          querystring: contentLanguageQuery,
        },
      },
      async (request, reply) => {
        const language = languageOf(request);
        const posts = await deps.content.listBlogForFeed(language);
        const query = request.query.lang ? `?lang=${language}` : "";
        const channel = {
          ...(feedTitles[language] ?? feedTitles.en ?? { title: "Tarmac", description: "" }),
          language,
          siteUrl,
          selfUrl: `${siteUrl}/api/blog/${format}/${query}`,
        };
        const document = format === "rss" ? renderRss(channel, posts) : renderAtom(channel, posts);
        const contentType = format === "rss" ? "application/rss+xml" : "application/atom+xml";
        return sendWithEtag(request, reply, document, {
          contentType: `${contentType}; charset=utf-8`,
          vary: "Accept-Language",
        });
      },
    );
  }
}
