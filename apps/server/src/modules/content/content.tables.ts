import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../users/users.tables.ts";

/**
 * The public site's content: one row per kind, slug and language. Editors write Markdown in
 * `body`; the answers render it to sanitized HTML. Only `published` rows are shown publicly.
 * Singletons (the landing, each menu, the footer, sign-up texts, the SDK page, the FAQ) use the
 * slug `main`; a redirect keeps the old path in `slug` and its target in `body`.
 */
export const contentEntries = pgTable(
  "content_entries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind").notNull(),
    slug: text("slug").notNull(),
    language: text("language").notNull(),
    /** draft | published */
    status: text("status").notNull().default("draft"),
    title: text("title").notNull().default(""),
    summary: text("summary").notNull().default(""),
    body: text("body").notNull().default(""),
    seoTitle: text("seo_title"),
    metaDescription: text("meta_description"),
    socialImage: text("social_image"),
    author: text("author"),
    coverImage: text("cover_image"),
    /** Set when first published; orders the blog, what's new and announcements. */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    updatedBy: bigint("updated_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("content_entries_kind_slug_language_key").on(table.kind, table.slug, table.language),
    index("content_entries_kind_published_idx").on(table.kind, table.status, table.publishedAt),
  ],
);

/** Which versions of the built-in site were written into content_entries (once per database). */
export const contentSeeds = pgTable("content_seeds", {
  version: integer("version").primaryKey(),
  seededAt: timestamp("seeded_at", { withTimezone: true }).notNull().defaultNow(),
});
