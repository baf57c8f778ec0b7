// The built-in site: written into content_entries the first time the server starts on a
// database, never again, so whatever editors change or delete stays as they left it.
import type { Tariff } from "@tarmac/contracts";
import type { Database } from "../../platform/db/client.ts";
import { claimSeedVersion, insertSeedEntries, type NewContentRow } from "./content.repo.ts";
import { blogSeed } from "./seed/blog.ts";
import { germanSeed } from "./seed/de.ts";
import { englishSeed } from "./seed/en.ts";
import { pricingSection } from "./seed/pricing.ts";
import { russianSeed } from "./seed/ru.ts";
import type { SeedContext, SeedEntry } from "./seed/seed-entry.ts";

const seedVersion = 1;

export function seedEntries(context: SeedContext): SeedEntry[] {
  return [...englishSeed(context), ...germanSeed(context), ...russianSeed(context), ...blogSeed()];
}

export class ContentSeeder {
  private seeding: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      db: Database;
      /** The plans on offer when the site is first written: the landing's pricing section. */
      listTariffs: () => Promise<Tariff[]>;
      adminEmail: string | null;
      publicUrl: string;
    },
  ) {}

  /** Once per process; across processes the seed's row in content_seeds decides who writes. */
  ensureSeeded(): Promise<void> {
    this.seeding ??= this.seed().catch((error: unknown) => {
      this.seeding = null;
      throw error;
    });
    return this.seeding;
  }

  private async seed(): Promise<void> {
    const tariffs = await this.deps.listTariffs();
    const context: SeedContext = {
      adminEmail: this.deps.adminEmail,
      publicUrl: this.deps.publicUrl,
      pricing: (language) => pricingSection(tariffs, language),
    };
    await this.deps.db.transaction(async (tx) => {
      if (!(await claimSeedVersion(tx, seedVersion))) return;
      const now = new Date();
      const rows: NewContentRow[] = seedEntries(context).map((entry) => ({
        kind: entry.kind,
        slug: entry.slug,
        language: entry.language,
        status: "published",
        title: entry.title,
        summary: entry.summary ?? "",
        body: entry.body.trim(),
        seoTitle: entry.seoTitle ?? null,
        metaDescription: entry.metaDescription ?? null,
        socialImage: entry.socialImage ?? null,
        author: entry.author ?? null,
        coverImage: entry.coverImage ?? null,
        publishedAt: entry.publishedAt ? new Date(entry.publishedAt) : now,
      }));
      await insertSeedEntries(tx, rows);
    });
  }
}
