// Public content calls. Shapes follow the API conventions (DRF style) where the spec shows none.
import { api } from "./client.ts";

export interface ContentPage {
  title: string;
  body: string;
  seo?: SeoData | null;
}

export interface SeoData {
  seo_title?: string | null;
  meta_description?: string | null;
  twitter_image?: string | null;
}

export interface LandingContent {
  title?: string | null;
  body?: string | null;
  seo?: SeoData | null;
}

export interface Tariff {
  id: number;
  title: string;
  price?: number | string | null;
  currency?: string | null;
  space_limit?: number | null;
  build_limit?: number | null;
  projects_limit?: number | null;
  user_limit?: number | null;
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface BlogPostSummary {
  slug: string;
  title: string;
  summary?: string | null;
  published_at?: string | null;
}

export interface BlogPost extends BlogPostSummary {
  body: string;
}

export function fetchContentPage(slug: string): Promise<ContentPage> {
  return api.get<ContentPage>(`/api/pages/${encodeURIComponent(slug)}/`);
}

export function fetchLanding(): Promise<LandingContent | null> {
  return api.get<LandingContent | null>("/api/lp/");
}

/** Accepts both a bare list and a paginated envelope. */
export async function fetchTariffs(): Promise<Tariff[]> {
  const reply = await api.get<Tariff[] | Page<Tariff>>("/api/tariffs/");
  return Array.isArray(reply) ? reply : (reply?.results ?? []);
}

export function fetchBlogPage(page: number): Promise<Page<BlogPostSummary>> {
  return api.get<Page<BlogPostSummary>>("/api/blog/", { query: { page } });
}

export function fetchBlogPost(slug: string): Promise<BlogPost> {
  return api.get<BlogPost>(`/api/blog/${encodeURIComponent(slug)}/`);
}
