import type { Database } from "../db/client.ts";
import { filterList, listWeight, type OrderedList } from "../db/id-list.ts";
import { SearchTermFolder } from "../db/text-search.ts";
import { GenerationCache } from "./generation-cache.ts";

/**
 * Large lists kept in memory per generation (an organization's catalog or directory version):
 * each list's ids in order with their folded search texts, and the folding of search terms.
 * Shared by the modules that page and search large lists.
 */
export interface ListCaches {
  positions: GenerationCache<OrderedList>;
  terms: SearchTermFolder;
}

export function createListCaches(db: Database): ListCaches {
  return {
    // Ids (8 bytes each) and search texts: 256 MiB holds about two million listed rows.
    positions: new GenerationCache<OrderedList>({
      maxEntries: 20_000,
      maxAgeMs: 10 * 60 * 1000,
      weigh: listWeight,
      maxWeight: 256 * 1024 * 1024,
    }),
    terms: new SearchTermFolder(db),
  };
}

/**
 * One page of the list `key` (loaded by `load` while `generation` holds) and its count: a slice
 * of the kept ids, after keeping only the rows whose search text contains `search` (folded as
 * the database folds) when there is one. A page past the end is empty.
 */
export async function pageOfList(
  caches: ListCaches,
  list: { key: string; generation: number; load: () => Promise<OrderedList> },
  search: string | undefined,
  page: { offset: number; limit: number },
): Promise<{ count: number; ids: number[] }> {
  const all = () => caches.positions.getOrBuild(list.key, list.generation, list.load);
  let { ids } = await all();
  if (search) {
    const folded = await caches.terms.fold(search);
    const found = await caches.positions.getOrBuild(`${list.key} ${folded}`, list.generation, async () =>
      filterList(await all(), folded),
    );
    ids = found.ids;
  }
  return { count: ids.length, ids: Array.from(ids.subarray(page.offset, page.offset + page.limit)) };
}
