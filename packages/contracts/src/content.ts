import { z } from "zod";
import { pageOf, pageQuery } from "./common.ts";

// The public site's content (spec §7 Content, plus the blog). Editors write Markdown; every
// answer carries the Markdown (`body`) and the sanitized HTML rendered from it (`html`).

export const contentLanguages = ["en", "de", "ru"] as const;
export type ContentLanguage = (typeof contentLanguages)[number];

/** What the answers below may be written as; each kind has its own call. */
export const contentKinds = [
  "lp",
  "main-menu",
  "footer-menu",
  "mobile-menu",
  "footer",
  "reg",
  "page",
  "page-sdk",
  "whats-new",
  "faq",
  "dashboard-setting",
  "blog",
  "redirect",
] as const;
export type ContentKind = (typeof contentKinds)[number];

/** Every public content call takes `?lang=`; without it the Accept-Language header decides. */
export const contentLanguageQuery = z.object({ lang: z.string().max(35).optional() });

export const seoData = z.object({
  seo_title: z.string().nullish(),
  meta_description: z.string().nullish(),
  twitter_image: z.string().nullish(),
});
export type SeoData = z.infer<typeof seoData>;

/** GET /api/pages/{slug}/, GET /api/page-sdk/, GET /api/reg/, GET /api/footer/ */
export const contentPage = z.object({
  slug: z.string(),
  language: z.string(),
  title: z.string(),
  body: z.string(),
  html: z.string(),
  seo: seoData.nullish(),
  updated_at: z.string(),
});
export type ContentPage = z.infer<typeof contentPage>;

export const contentSection = z.object({ heading: z.string(), html: z.string() });
export type ContentSection = z.infer<typeof contentSection>;

/** GET /api/lp/: the promo landing, its text cut into sections at its `##` headings. */
export const landingContent = contentPage.extend({
  intro_html: z.string(),
  sections: z.array(contentSection),
});
export type LandingContent = z.infer<typeof landingContent>;

export const menuItem = z.object({ title: z.string(), url: z.string() });
export type MenuItem = z.infer<typeof menuItem>;
/** GET /api/main-menu/, /api/footer-menu/, /api/mobile-menu/ */
export const menu = z.object({ language: z.string(), items: z.array(menuItem) });
export type Menu = z.infer<typeof menu>;

export const faqItem = z.object({ question: z.string(), answer_html: z.string() });
/** GET /api/faq/ */
export const faq = z.object({ language: z.string(), title: z.string(), items: z.array(faqItem) });
export type Faq = z.infer<typeof faq>;

export const whatsNewEntry = z.object({
  id: z.string(),
  title: z.string(),
  html: z.string(),
  published_at: z.string().nullable(),
});
export type WhatsNewEntry = z.infer<typeof whatsNewEntry>;
/** GET /api/whats-new/ (newest first); with ?id= one entry */
export const whatsNewQuery = contentLanguageQuery.extend({ id: z.string().max(200).optional() });
export const whatsNewList = z.object({ language: z.string(), results: z.array(whatsNewEntry) });

/** GET /api/dashboard-setting/: the dashboard's welcome panel and announcements. */
export const dashboardSetting = z.object({
  language: z.string(),
  welcome: z.object({ title: z.string(), html: z.string() }).nullable(),
  announcements: z.array(whatsNewEntry),
});
export type DashboardSetting = z.infer<typeof dashboardSetting>;

/** GET /api/url-redirect/?url_old= */
export const urlRedirectQuery = z.object({ url_old: z.string().min(1).max(2000) });
export const urlRedirect = z.object({ url_old: z.string(), url_new: z.string() });
export type UrlRedirect = z.infer<typeof urlRedirect>;

export const blogPostSummary = z.object({
  slug: z.string(),
  language: z.string(),
  title: z.string(),
  summary: z.string().nullish(),
  author: z.string().nullish(),
  cover_image: z.string().nullish(),
  published_at: z.string().nullish(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummary>;
/** GET /api/blog/?page= */
export const blogQuery = pageQuery.extend(contentLanguageQuery.shape);
export const blogPostPage = pageOf(blogPostSummary);

/** GET /api/blog/{slug}/ */
export const blogPost = blogPostSummary.extend({ body: z.string(), html: z.string() });
export type BlogPost = z.infer<typeof blogPost>;

// Instance administrators' editor: /api/admin/content/.

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

export const contentEntryInput = z.object({
  kind: z.enum(contentKinds),
  slug: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^\s?#]+$/, "Use letters, digits, dashes, dots and slashes, without spaces."),
  language: z.enum(contentLanguages),
  status: z.enum(["draft", "published"]),
  title: z.string().trim().max(300).default(""),
  summary: z.string().trim().max(1000).default(""),
  body: z.string().max(200_000).default(""),
  seo_title: optionalText(300),
  meta_description: optionalText(1000),
  social_image: optionalText(2000),
  author: optionalText(200),
  cover_image: optionalText(2000),
});
export type ContentEntryInput = z.infer<typeof contentEntryInput>;

export const contentEntry = z.object({
  id: z.number().int(),
  kind: z.enum(contentKinds),
  slug: z.string(),
  language: z.enum(contentLanguages),
  status: z.enum(["draft", "published"]),
  title: z.string(),
  summary: z.string(),
  body: z.string(),
  seo_title: z.string().nullable(),
  meta_description: z.string().nullable(),
  social_image: z.string().nullable(),
  author: z.string().nullable(),
  cover_image: z.string().nullable(),
  published_at: z.string().nullable(),
  updated_at: z.string(),
});
export type ContentEntry = z.infer<typeof contentEntry>;

export const contentEntryQuery = pageQuery.extend({
  kind: z.enum(contentKinds).optional(),
  language: z.enum(contentLanguages).optional(),
  search: z.string().max(200).optional(),
});
export const contentEntryPage = pageOf(contentEntry);

export const contentPreviewInput = z.object({ body: z.string().max(200_000) });
export const contentPreview = z.object({ html: z.string() });
