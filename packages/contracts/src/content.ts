import { z } from "zod";
import { pageOf } from "./common.ts";

// Public content read by the web client's marketing pages (spec §7: /api/pages/, /api/lp/,
// /api/blog/). This server does not serve them yet, so these schemas record what the client
// reads: fields a content editor may leave empty are nullish, and the pages fall back on them.

export const seoData = z.object({
  seo_title: z.string().nullish(),
  meta_description: z.string().nullish(),
  twitter_image: z.string().nullish(),
});
export type SeoData = z.infer<typeof seoData>;

/** GET /api/pages/{slug}/ */
export const contentPage = z.object({
  title: z.string(),
  body: z.string(),
  seo: seoData.nullish(),
});
export type ContentPage = z.infer<typeof contentPage>;

/** GET /api/lp/: the promo landing; the client also accepts an empty (null) answer. */
export const landingContent = z.object({
  title: z.string().nullish(),
  body: z.string().nullish(),
  seo: seoData.nullish(),
});
export type LandingContent = z.infer<typeof landingContent>;

export const blogPostSummary = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string().nullish(),
  published_at: z.string().nullish(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummary>;
/** GET /api/blog/?page= */
export const blogPostPage = pageOf(blogPostSummary);

/** GET /api/blog/{slug}/ */
export const blogPost = blogPostSummary.extend({ body: z.string() });
export type BlogPost = z.infer<typeof blogPost>;
