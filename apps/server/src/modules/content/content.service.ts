/**
 * Owns the public site's content (content_entries, content_seeds): the landing, menus, footer,
 * sign-up texts, pages, what's new, the SDK page, dashboard settings, FAQ, redirects and the
 * blog, each read in the visitor's language with English standing in. Content belongs to the
 * instance, not to an organization: every visitor reads the same site.
 */
import type {
  BlogPost,
  BlogPostSummary,
  ContentLanguage,
  ContentPage,
  DashboardSetting,
  Faq,
  LandingContent,
  Menu,
  UrlRedirect,
  WhatsNewEntry,
} from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import { type ContentRow, listPublished } from "./content.repo.ts";
import { languagesFor, preferLanguage } from "./content-language.ts";
import { parseMenu, plainText, renderMarkdown, splitSections } from "./content-markdown.ts";
import type { ContentSeeder } from "./content-seeder.ts";

export type MenuKind = "main-menu" | "footer-menu" | "mobile-menu";
/** Kinds answered as one page: pages by slug, and the singletons kept under the slug `main`. */
export type PageKind = "page" | "page-sdk" | "reg" | "footer";
export const singletonSlug = "main";

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export function presentPage(row: ContentRow): ContentPage {
  return {
    slug: row.slug,
    language: row.language,
    title: row.title,
    body: row.body,
    html: renderMarkdown(row.body),
    seo: {
      seo_title: row.seoTitle || row.title || null,
      meta_description: row.metaDescription || row.summary || null,
      twitter_image: row.socialImage,
    },
    updated_at: row.updatedAt.toISOString(),
  };
}

function presentEntry(row: ContentRow): WhatsNewEntry {
  return {
    id: row.slug,
    title: row.title,
    html: renderMarkdown(row.body),
    published_at: iso(row.publishedAt),
  };
}

export function presentBlogSummary(row: ContentRow): BlogPostSummary {
  return {
    slug: row.slug,
    language: row.language,
    title: row.title,
    summary: row.summary || null,
    author: row.author,
    cover_image: row.coverImage,
    published_at: iso(row.publishedAt),
  };
}

export class ContentService {
  constructor(private readonly deps: { db: Database; seeder: ContentSeeder }) {}

  /** Published rows of a kind in `language` or English, one per slug, newest first. */
  private async read(kind: string, language: ContentLanguage, slug?: string): Promise<ContentRow[]> {
    await this.deps.seeder.ensureSeeded();
    return preferLanguage(await listPublished(this.deps.db, kind, languagesFor(language), slug), language);
  }

  private async readOne(kind: string, language: ContentLanguage, slug: string): Promise<ContentRow | null> {
    return (await this.read(kind, language, slug))[0] ?? null;
  }

  async getPage(kind: PageKind, language: ContentLanguage, slug = singletonSlug): Promise<ContentPage> {
    const row = await this.readOne(kind, language, slug);
    if (!row) throw AppError.notFound();
    return presentPage(row);
  }

  async getLanding(language: ContentLanguage): Promise<LandingContent> {
    const row = await this.readOne("lp", language, singletonSlug);
    if (!row) throw AppError.notFound();
    const { intro, sections } = splitSections(row.body);
    return {
      ...presentPage(row),
      intro_html: renderMarkdown(intro),
      sections: sections.map((section) => ({
        heading: plainText(section.heading),
        html: renderMarkdown(section.markdown),
      })),
    };
  }

  async getMenu(kind: MenuKind, language: ContentLanguage): Promise<Menu> {
    const row = await this.readOne(kind, language, singletonSlug);
    return { language: row?.language ?? language, items: row ? parseMenu(row.body) : [] };
  }

  async getFaq(language: ContentLanguage): Promise<Faq> {
    const row = await this.readOne("faq", language, singletonSlug);
    if (!row) return { language, title: "", items: [] };
    return {
      language: row.language,
      title: row.title,
      items: splitSections(row.body).sections.map((section) => ({
        question: plainText(section.heading),
        answer_html: renderMarkdown(section.markdown),
      })),
    };
  }

  async listWhatsNew(language: ContentLanguage): Promise<{ language: string; results: WhatsNewEntry[] }> {
    return { language, results: (await this.read("whats-new", language)).map(presentEntry) };
  }

  async getWhatsNew(id: string, language: ContentLanguage): Promise<WhatsNewEntry> {
    const row = await this.readOne("whats-new", language, id);
    if (!row) throw AppError.notFound();
    return presentEntry(row);
  }

  /** The dashboard's welcome panel (slug `welcome`) and its announcements (every other slug). */
  async getDashboardSetting(language: ContentLanguage): Promise<DashboardSetting> {
    const rows = await this.read("dashboard-setting", language);
    const welcome = rows.find((row) => row.slug === "welcome");
    return {
      language,
      welcome: welcome ? { title: welcome.title, html: renderMarkdown(welcome.body) } : null,
      announcements: rows.filter((row) => row.slug !== "welcome").map(presentEntry),
    };
  }

  /**
   * Where an old address now lives. The old address may come as a full URL or a path, with or
   * without its trailing slash; the target is a site path or an http(s) address.
   */
  async findRedirect(urlOld: string): Promise<UrlRedirect> {
    const path = oldPathOf(urlOld);
    if (path) {
      const candidates = [path, path.endsWith("/") ? path.slice(0, -1) : `${path}/`].filter(Boolean);
      for (const candidate of candidates) {
        const row = await this.readOne("redirect", "en", candidate);
        const target = row?.body.trim();
        if (target && /^(\/(?!\/)|https?:\/\/)/i.test(target)) return { url_old: urlOld, url_new: target };
      }
    }
    throw AppError.notFound("No redirect for this address.");
  }

  async listBlog(
    language: ContentLanguage,
    limit: number,
    offset: number,
  ): Promise<{ count: number; results: BlogPostSummary[] }> {
    const rows = await this.read("blog", language);
    return { count: rows.length, results: rows.slice(offset, offset + limit).map(presentBlogSummary) };
  }

  async getBlogPost(slug: string, language: ContentLanguage): Promise<BlogPost> {
    const row = await this.readOne("blog", language, slug);
    if (!row) throw AppError.notFound();
    return { ...presentBlogSummary(row), body: row.body, html: renderMarkdown(row.body) };
  }

  /** The newest posts with their HTML, for the feeds. */
  async listBlogForFeed(language: ContentLanguage, limit = 20): Promise<BlogPost[]> {
    const rows = (await this.read("blog", language)).slice(0, limit);
    return rows.map((row) => ({
      ...presentBlogSummary(row),
      body: row.body,
      html: renderMarkdown(row.body),
    }));
  }
}

/** `/about?x=1`, `https://host/about`, `about` -> `/about`; null when it cannot be a site path. */
export function oldPathOf(urlOld: string): string | null {
  let path = urlOld.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return null;
    }
  }
  path = path.replace(/[?#].*$/, "");
  if (!path.startsWith("/")) path = `/${path}`;
  return path.length > 1 || path === "/" ? path : null;
}
