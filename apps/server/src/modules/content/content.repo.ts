import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import { contentEntries, contentSeeds } from "./content.tables.ts";

export type ContentRow = typeof contentEntries.$inferSelect;
export type NewContentRow = typeof contentEntries.$inferInsert;

/** Published rows of one kind (and slug) in any of `languages`; the caller picks the best language. */
export async function listPublished(
  db: Database,
  kind: string,
  languages: string[],
  slug?: string,
): Promise<ContentRow[]> {
  const conditions = [
    eq(contentEntries.kind, kind),
    eq(contentEntries.status, "published"),
    inArray(contentEntries.language, languages),
  ];
  if (slug !== undefined) conditions.push(eq(contentEntries.slug, slug));
  return db
    .select()
    .from(contentEntries)
    .where(and(...conditions))
    .orderBy(desc(contentEntries.publishedAt), asc(contentEntries.id));
}

export async function listEntries(
  db: Database,
  filter: { kind?: string; language?: string; search?: string; limit: number; offset: number },
): Promise<{ count: number; rows: ContentRow[] }> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.kind) conditions.push(eq(contentEntries.kind, filter.kind));
  if (filter.language) conditions.push(eq(contentEntries.language, filter.language));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    conditions.push(or(ilike(contentEntries.slug, pattern), ilike(contentEntries.title, pattern)));
  }
  const where = and(...conditions);
  const [total] = await db.select({ value: count() }).from(contentEntries).where(where);
  const rows = await db
    .select()
    .from(contentEntries)
    .where(where)
    .orderBy(asc(contentEntries.kind), asc(contentEntries.slug), asc(contentEntries.language))
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: Number(total?.value ?? 0), rows };
}

export async function findEntry(db: Database, id: number): Promise<ContentRow | null> {
  const [row] = await db.select().from(contentEntries).where(eq(contentEntries.id, id));
  return row ?? null;
}

export async function findEntryByKey(
  db: Database,
  key: { kind: string; slug: string; language: string },
): Promise<ContentRow | null> {
  const [row] = await db
    .select()
    .from(contentEntries)
    .where(
      and(
        eq(contentEntries.kind, key.kind),
        eq(contentEntries.slug, key.slug),
        eq(contentEntries.language, key.language),
      ),
    );
  return row ?? null;
}

export async function insertEntry(db: Database, values: NewContentRow): Promise<ContentRow> {
  const [row] = await db.insert(contentEntries).values(values).returning();
  if (!row) throw new Error("content entry insert returned nothing");
  return row;
}

export async function updateEntry(
  db: Database,
  id: number,
  values: Partial<NewContentRow>,
): Promise<ContentRow | null> {
  const [row] = await db.update(contentEntries).set(values).where(eq(contentEntries.id, id)).returning();
  return row ?? null;
}

export async function deleteEntry(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .delete(contentEntries)
    .where(eq(contentEntries.id, id))
    .returning({ id: contentEntries.id });
  return rows.length > 0;
}

/** True for the one caller that records `version` as seeded; everyone else finds it taken. */
export async function claimSeedVersion(db: Database, version: number): Promise<boolean> {
  const rows = await db
    .insert(contentSeeds)
    .values({ version })
    .onConflictDoNothing()
    .returning({ version: contentSeeds.version });
  return rows.length > 0;
}

/** Seeded rows never replace what an editor already wrote under the same key. */
export async function insertSeedEntries(db: Database, rows: NewContentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(contentEntries).values(rows).onConflictDoNothing();
}
