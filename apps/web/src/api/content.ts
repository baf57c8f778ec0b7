// Public content calls: content pages, the promo landing and the blog.
import type {
  BlogPost,
  BlogPostSummary,
  ContentPage,
  LandingContent,
  Page,
  SeoData,
} from "@tarmac/contracts";
import { api } from "./client.ts";

export type { BlogPost, BlogPostSummary, ContentPage, LandingContent, SeoData };

export const contentKeys = {
  page: (slug: string) => ["pages", slug] as const,
  landing: () => ["landing"] as const,
  blogList: (page: number) => ["blog", "list", page] as const,
  blogPost: (slug: string) => ["blog", "post", slug] as const,
};

export function fetchContentPage(slug: string): Promise<ContentPage> {
  return api.get<ContentPage>(`/api/pages/${encodeURIComponent(slug)}/`);
}

export function fetchLanding(): Promise<LandingContent | null> {
  return api.get<LandingContent | null>("/api/lp/");
}

export function fetchBlogPage(page: number): Promise<Page<BlogPostSummary>> {
  return api.get<Page<BlogPostSummary>>("/api/blog/", { query: { page } });
}

export function fetchBlogPost(slug: string): Promise<BlogPost> {
  return api.get<BlogPost>(`/api/blog/${encodeURIComponent(slug)}/`);
}
