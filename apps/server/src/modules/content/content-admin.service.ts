/** The editor's side of the site content: instance administrators list, write and remove entries. */
import type { ContentEntry, ContentEntryInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import {
  type ContentRow,
  deleteEntry,
  findEntry,
  findEntryByKey,
  insertEntry,
  listEntries,
  updateEntry,
} from "./content.repo.ts";
import { renderMarkdown } from "./content-markdown.ts";
import type { ContentSeeder } from "./content-seeder.ts";

export function presentEntry(row: ContentRow): ContentEntry {
  return {
    id: row.id,
    kind: row.kind as ContentEntry["kind"],
    slug: row.slug,
    language: row.language as ContentEntry["language"],
    status: row.status as ContentEntry["status"],
    title: row.title,
    summary: row.summary,
    body: row.body,
    seo_title: row.seoTitle,
    meta_description: row.metaDescription,
    social_image: row.socialImage,
    author: row.author,
    cover_image: row.coverImage,
    published_at: row.publishedAt?.toISOString() ?? null,
    updated_at: row.updatedAt.toISOString(),
  };
}

const duplicateKey = AppError.validation({
  slug: ["An entry of this kind with this slug already exists in this language."],
});

/** A redirect's body is its target: a site path or a web address, never a script URL. */
function assertRedirectTarget(input: ContentEntryInput): void {
  if (input.kind !== "redirect") return;
  if (!input.slug.startsWith("/"))
    throw AppError.validation({ slug: ["The old address must start with /."] });
  if (!/^(\/(?!\/)|https?:\/\/)\S+$/i.test(input.body.trim())) {
    throw AppError.validation({ body: ["The target must be a path starting with / or an http(s) address."] });
  }
}

function columnsOf(input: ContentEntryInput, userId: number) {
  return {
    kind: input.kind,
    slug: input.slug,
    language: input.language,
    status: input.status,
    title: input.title,
    summary: input.summary,
    body: input.body,
    seoTitle: input.seo_title,
    metaDescription: input.meta_description,
    socialImage: input.social_image,
    author: input.author,
    coverImage: input.cover_image,
    updatedBy: userId,
    updatedAt: new Date(),
  };
}

export class ContentAdminService {
  constructor(private readonly deps: { db: Database; seeder: ContentSeeder }) {}

  async list(
    params: PageParams,
    filter: { kind?: string; language?: string; search?: string },
  ): Promise<{ count: number; results: ContentEntry[] }> {
    await this.deps.seeder.ensureSeeded();
    const { count, rows } = await listEntries(this.deps.db, {
      ...filter,
      limit: params.pageSize,
      offset: params.offset,
    });
    return { count, results: rows.map(presentEntry) };
  }

  async get(id: number): Promise<ContentEntry> {
    const row = await findEntry(this.deps.db, id);
    if (!row) throw AppError.notFound();
    return presentEntry(row);
  }

  async create(userId: number, input: ContentEntryInput): Promise<ContentEntry> {
    assertRedirectTarget(input);
    await this.deps.seeder.ensureSeeded();
    if (await findEntryByKey(this.deps.db, input)) throw duplicateKey;
    const row = await insertEntry(this.deps.db, {
      ...columnsOf(input, userId),
      publishedAt: input.status === "published" ? new Date() : null,
    });
    return presentEntry(row);
  }

  async update(userId: number, id: number, input: ContentEntryInput): Promise<ContentEntry> {
    assertRedirectTarget(input);
    const current = await findEntry(this.deps.db, id);
    if (!current) throw AppError.notFound();
    const sameKey = await findEntryByKey(this.deps.db, input);
    if (sameKey && sameKey.id !== id) throw duplicateKey;
    // The first publication dates a post; later edits and re-publications keep that date.
    const publishedAt = current.publishedAt ?? (input.status === "published" ? new Date() : null);
    const row = await updateEntry(this.deps.db, id, { ...columnsOf(input, userId), publishedAt });
    if (!row) throw AppError.notFound();
    return presentEntry(row);
  }

  async remove(id: number): Promise<void> {
    if (!(await deleteEntry(this.deps.db, id))) throw AppError.notFound();
  }

  /** The HTML visitors would get for `body`, rendered and sanitized exactly as published. */
  preview(body: string): { html: string } {
    return { html: renderMarkdown(body) };
  }
}
