import { GenerationCache } from "./generation-cache.ts";

/** What a request carries of its memberships: each organization's catalog version as its token read it. */
export type CarriedVersions = readonly { organizationId: number; catalogVersion: number }[];

/**
 * Rows of organizations' catalogs (apps, projects) kept across requests while their
 * organization's catalog version holds, for callers who carry their memberships: a kept row
 * answers when the version the caller's token read equals the one it was kept with. Any change
 * to the catalog (a row changed or deleted) moves the version, so the next request reads again.
 */
export class CatalogRows<R extends { organizationId: number }> {
  private readonly rows = new GenerationCache<{ row: R; catalogVersion: number }>({
    maxEntries: 50_000,
    maxAgeMs: 10 * 60_000,
  });

  /** The row under `key`, kept or read by `load`; always read for callers who carry nothing. */
  async get(
    key: string,
    carried: CarriedVersions | undefined,
    load: () => Promise<R | null>,
  ): Promise<R | null> {
    if (!carried) return load();
    const versionIn = (organizationId: number) =>
      carried.find((membership) => membership.organizationId === organizationId)?.catalogVersion;
    const kept = this.rows.get(key, 0);
    if (kept && versionIn(kept.row.organizationId) === kept.catalogVersion) return kept.row;
    const row = await load();
    // The version the token read came before this row was read: the row is at least that new.
    const catalogVersion = row ? versionIn(row.organizationId) : undefined;
    if (row && catalogVersion !== undefined) this.rows.set(key, 0, { row, catalogVersion });
    return row;
  }
}
