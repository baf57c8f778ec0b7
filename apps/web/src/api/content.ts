// The public site's content calls (spec §7 Content, and the blog), each in the visitor's
// language (the server falls back to English), and the administrators' editor of that content.
import type {
  BlogPost,
  BlogPostSummary,
  ContentEntry,
  ContentEntryInput,
  ContentKind,
  ContentLanguage,
  ContentPage,
  DashboardSetting,
  Faq,
  LandingContent,
  Menu,
  MenuItem,
  Page,
  SeoData,
  UrlRedirect,
  WhatsNewEntry,
} from "@tarmac/contracts";
import { contentKinds, contentLanguages } from "@tarmac/contracts";
import { ApiError, api } from "./client.ts";

export type {
  BlogPost,
  BlogPostSummary,
  ContentEntry,
  ContentEntryInput,
  ContentKind,
  ContentLanguage,
  ContentPage,
  DashboardSetting,
  Faq,
  LandingContent,
  Menu,
  MenuItem,
  SeoData,
  WhatsNewEntry,
};
export { contentKinds, contentLanguages };

export type MenuKind = "main-menu" | "footer-menu" | "mobile-menu";
/** Singletons answered as one page. */
export type PagePath = "reg" | "page-sdk" | "footer";

export const BLOG_PAGE_SIZE = 10;
export const CONTENT_ENTRIES_PAGE_SIZE = 50;

export const contentKeys = {
  all: () => ["content"] as const,
  page: (slug: string, lang: string) => ["content", "pages", slug, lang] as const,
  single: (path: PagePath, lang: string) => ["content", path, lang] as const,
  landing: (lang: string) => ["content", "landing", lang] as const,
  menu: (kind: MenuKind, lang: string) => ["content", kind, lang] as const,
  faq: (lang: string) => ["content", "faq", lang] as const,
  whatsNew: (lang: string) => ["content", "whats-new", lang] as const,
  dashboard: (lang: string) => ["content", "dashboard-setting", lang] as const,
  redirect: (path: string) => ["content", "url-redirect", path] as const,
  blogList: (page: number, lang: string) => ["content", "blog", "list", page, lang] as const,
  blogPost: (slug: string, lang: string) => ["content", "blog", "post", slug, lang] as const,
  entries: (filter: EntryFilter) => ["content", "admin", "entries", filter] as const,
};

export function fetchContentPage(slug: string, lang: string): Promise<ContentPage> {
  return api.get<ContentPage>(`/api/pages/${encodeURIComponent(slug)}/`, { query: { lang } });
}

export function fetchSinglePage(path: PagePath, lang: string): Promise<ContentPage> {
  return api.get<ContentPage>(`/api/${path}/`, { query: { lang } });
}

export function fetchLanding(lang: string): Promise<LandingContent> {
  return api.get<LandingContent>("/api/lp/", { query: { lang } });
}

export function fetchMenu(kind: MenuKind, lang: string): Promise<Menu> {
  return api.get<Menu>(`/api/${kind}/`, { query: { lang } });
}

export function fetchFaq(lang: string): Promise<Faq> {
  return api.get<Faq>("/api/faq/", { query: { lang } });
}

export function fetchWhatsNew(lang: string): Promise<{ language: string; results: WhatsNewEntry[] }> {
  return api.get("/api/whats-new/", { query: { lang } });
}

export function fetchDashboardSetting(lang: string): Promise<DashboardSetting> {
  return api.get<DashboardSetting>("/api/dashboard-setting/", { query: { lang } });
}

/** Where an old address moved to, or null when it moved nowhere. */
export async function findRedirect(path: string): Promise<string | null> {
  try {
    return (await api.get<UrlRedirect>("/api/url-redirect/", { query: { url_old: path } })).url_new;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function fetchBlogPage(page: number, lang: string): Promise<Page<BlogPostSummary>> {
  return api.get<Page<BlogPostSummary>>("/api/blog/", { query: { page, page_size: BLOG_PAGE_SIZE, lang } });
}

export function fetchBlogPost(slug: string, lang: string): Promise<BlogPost> {
  return api.get<BlogPost>(`/api/blog/${encodeURIComponent(slug)}/`, { query: { lang } });
}

export function blogFeedUrl(format: "rss" | "atom", lang: string): string {
  return `/api/blog/${format}/?lang=${encodeURIComponent(lang)}`;
}

// The editor (instance administrators).

export interface EntryFilter {
  kind: ContentKind | null;
  language: ContentLanguage | null;
  search: string;
  page: number;
}

export function fetchContentEntries(filter: EntryFilter): Promise<Page<ContentEntry>> {
  return api.get<Page<ContentEntry>>("/api/admin/content/", {
    query: {
      kind: filter.kind,
      language: filter.language,
      search: filter.search || null,
      page: filter.page,
      page_size: CONTENT_ENTRIES_PAGE_SIZE,
    },
  });
}

export function saveContentEntry(id: number | null, input: ContentEntryInput): Promise<ContentEntry> {
  return id === null
    ? api.post<ContentEntry>("/api/admin/content/", input)
    : api.put<ContentEntry>(`/api/admin/content/${id}/`, input);
}

export function deleteContentEntry(id: number): Promise<void> {
  return api.delete<void>(`/api/admin/content/${id}/`);
}

export async function previewMarkdown(body: string): Promise<string> {
  return (await api.post<{ html: string }>("/api/admin/content/preview/", { body })).html;
}
