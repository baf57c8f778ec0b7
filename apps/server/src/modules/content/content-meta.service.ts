// What a link to a public page shows when shared in a chat: the title, description and image
// the web host writes into index.html's head before the app itself has run.
import type { ContentLanguage, GetappPage } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageHead } from "../web-host/page-head.ts";
import type { ContentService } from "./content.service.ts";
import { feedTitles } from "./content-feeds.ts";
import { resolveLanguage } from "./content-language.ts";

export interface PageMeta {
  title: string;
  description: string | null;
  /** Absolute address of the preview image. */
  image: string | null;
  type: "website" | "article";
  /** The page's canonical address. */
  url: string;
  language: ContentLanguage;
}

/** The install page's data for an anonymous visitor; null when the link is not shown to one. */
export type InstallPagePreview = (key: string) => Promise<GetappPage | null>;

const appName = "Tarmac";

const fixedTitles: Record<string, Record<ContentLanguage, string>> = {
  "/pricing": { en: "Pricing", de: "Preise", ru: "Цены" },
  "/blog": { en: "Blog", de: "Blog", ru: "Блог" },
  "/whats-new": { en: "What's new", de: "Neuigkeiten", ru: "Что нового" },
  "/signup": { en: "Sign up", de: "Registrieren", ru: "Регистрация" },
  "/login": { en: "Sign in", de: "Anmelden", ru: "Вход" },
  "/get-my-udid": { en: "Device identifier", de: "Gerätekennung", ru: "Идентификатор устройства" },
};

const installWords: Record<ContentLanguage, (title: string, version: string | null) => string> = {
  en: (title, version) => `Install ${title}${version ? ` ${version}` : ""}`,
  de: (title, version) => `${title}${version ? ` ${version}` : ""} installieren`,
  ru: (title, version) => `Установить ${title}${version ? ` ${version}` : ""}`,
};

/** Paths the web app answers itself; a single segment that is none of these is a content page. */
const appPaths = new Set([
  "dashboard",
  "signup",
  "activate",
  "login",
  "login-custom-client",
  "reset",
  "update-password",
  "not-found",
  "getapp",
  "get-my-udid",
  "promo",
  "pricing",
  "blog",
  "faq",
  "whats-new",
  "sdk",
]);

export class PageMetaService {
  private readonly siteUrl: string;

  constructor(
    private readonly deps: {
      content: ContentService;
      publicUrl: string;
      installPreview?: InstallPagePreview;
    },
  ) {
    this.siteUrl = deps.publicUrl.replace(/\/+$/, "");
  }

  private absolute(address: string | null | undefined): string | null {
    if (!address) return null;
    try {
      return new URL(address, `${this.siteUrl}/`).href;
    } catch {
      return null;
    }
  }

  /** The head of `path` for a visitor with these language hints, with the blog's feeds on its pages. */
  async headOf(path: string, hints: { lang?: string; acceptLanguage?: string }): Promise<PageHead> {
    const language = resolveLanguage(hints.lang, hints.acceptLanguage);
    const meta = await this.describe(path, language);
    if (!/^\/blog(\/|$)/.test(path)) return meta;
    const title = feedTitles[language]?.title ?? "Tarmac blog";
    return {
      ...meta,
      feeds: [
        { type: "application/rss+xml", title, href: `${this.siteUrl}/api/blog/rss/?lang=${language}` },
        { type: "application/atom+xml", title, href: `${this.siteUrl}/api/blog/atom/?lang=${language}` },
      ],
    };
  }

  /** The meta of `path` in `language`; the landing's when the path has nothing of its own. */
  async describe(path: string, language: ContentLanguage): Promise<PageMeta> {
    const clean = path.replace(/[?#].*$/, "").replace(/\/+$/, "") || "/";
    const landing = await this.deps.content.getLanding(language).catch(() => null);
    const base: PageMeta = {
      title: landing?.seo?.seo_title || appName,
      description: landing?.seo?.meta_description ?? null,
      image: this.absolute(landing?.seo?.twitter_image),
      type: "website",
      url: `${this.siteUrl}${clean === "/" ? "/" : clean}`,
      language,
    };
    const own = await this.ownMeta(clean, language).catch((error: unknown) => {
      if (error instanceof AppError && error.status < 500) return null;
      throw error;
    });
    return own ? { ...base, ...own, image: own.image ?? base.image } : base;
  }

  private titled(title: string): string {
    return title && title !== appName ? `${title} — ${appName}` : appName;
  }

  private async ownMeta(path: string, language: ContentLanguage): Promise<Partial<PageMeta> | null> {
    const { content } = this.deps;
    const segments = path.split("/").filter(Boolean).map(decodeURIComponent);
    const fixed = fixedTitles[path]?.[language];
    if (fixed) return { title: this.titled(fixed) };
    if (path === "/promo") return {};
    if (segments[0] === "blog" && segments.length === 2 && segments[1]) {
      const post = await content.getBlogPost(segments[1], language);
      return {
        title: this.titled(post.title),
        description: post.summary ?? null,
        image: this.absolute(post.cover_image),
        type: "article",
      };
    }
    if (path === "/faq") return { title: this.titled((await content.getFaq(language)).title) };
    if (path === "/sdk") return this.pageMeta(await content.getPage("page-sdk", language));
    if (segments[0] === "getapp" && segments.length === 2 && segments[1] && this.deps.installPreview) {
      return this.installMeta(segments[1], language);
    }
    if (segments.length === 1 && segments[0] && !appPaths.has(segments[0])) {
      return this.pageMeta(await content.getPage("page", language, segments[0]));
    }
    return null;
  }

  private pageMeta(page: Awaited<ReturnType<ContentService["getPage"]>>): Partial<PageMeta> {
    return {
      title: this.titled(page.seo?.seo_title || page.title),
      description: page.seo?.meta_description ?? null,
      image: this.absolute(page.seo?.twitter_image),
    };
  }

  /** An install link shows the app's name, newest version and icon — never more than its page would. */
  private async installMeta(key: string, language: ContentLanguage): Promise<Partial<PageMeta> | null> {
    const page = await this.deps.installPreview?.(key);
    if (!page) return null;
    const version = page.builds[0]?.version ?? null;
    return {
      title: installWords[language](page.title, version),
      description: page.description || page.organization,
      image: this.absolute(page.icon),
    };
  }
}
