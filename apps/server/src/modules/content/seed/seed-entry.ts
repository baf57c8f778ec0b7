import type { ContentKind, ContentLanguage } from "@tarmac/contracts";

/** One row of the built-in site, as its author writes it. */
export interface SeedEntry {
  kind: ContentKind;
  slug: string;
  language: ContentLanguage;
  title: string;
  body: string;
  summary?: string;
  seoTitle?: string;
  metaDescription?: string;
  socialImage?: string;
  author?: string;
  coverImage?: string;
  /** ISO date; defaults to the moment of seeding. */
  publishedAt?: string;
}

/** What the built-in texts take from the instance they are written into. */
export interface SeedContext {
  adminEmail: string | null;
  publicUrl: string;
  /** The landing's pricing section, from the plans on offer. */
  pricing: (language: ContentLanguage) => string;
}

/** A single-language entry list, with `language` filled in. */
export function inLanguage(language: ContentLanguage, entries: Omit<SeedEntry, "language">[]): SeedEntry[] {
  return entries.map((entry) => ({ ...entry, language }));
}

/** Redirects do not depend on the language; they live under English. */
export function redirect(from: string, to: string): SeedEntry {
  return { kind: "redirect", slug: from, language: "en", title: `${from} → ${to}`, body: to };
}
