import type { Database } from "../db/client.ts";
import { filterList, listWeight, type OrderedList } from "../db/id-list.ts";
import { SearchTermFolder } from "../db/text-search.ts";
import { buildTrigramIndexInSlices } from "../db/trigram-index.ts";
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

/** Below this many characters of search text, a scan of them all takes a fraction of a millisecond. */
const indexedFromCharacters = 200_000;

/**
 * The list with a trigram index of its texts when they are long. The index is built once per
 * generation, in slices between other requests' work. The search that starts the build answers
 * by a scan of every text (about 4 ms a term at 100,000 apps), which finds the same rows; the
 * searches that arrive while it is built wait for it. Under load, a scan each piled up: 32
 * searches at once took more than 100 ms of the process's time per round, and stretched the
 * build, whose slices wait their turn, over seconds.
 */
async function searchable(
  caches: ListCaches,
  key: string,
  generation: number,
  list: OrderedList,
): Promise<OrderedList> {
  const { texts } = list;
  if (!texts || texts.joined.length < indexedFromCharacters) return list;
  let startedHere = false;
  const building = caches.positions.getOrBuild(`${key} trigrams`, generation, async () => {
    startedHere = true;
    return { ...list, index: await buildTrigramIndexInSlices(texts, list.ids.length) };
  });
  // getOrBuild answers a kept index, joins a build under way, or calls the build at once.
  if (startedHere) {
    building.catch(() => undefined);
    return list;
  }
  return building.catch(() => list);
}

/** A list kept per generation: `load` reads it with its search texts. */
export interface KeptList {
  key: string;
  generation: number;
  load: () => Promise<OrderedList>;
  /**
   * Reads the list's ids alone, for lists whose texts weigh far more than their ids: pages
   * without a search then load only the ids, and the texts are read at the first search.
   */
  loadIds?: () => Promise<OrderedList>;
}

/**
 * One page of the list `key` (loaded by `load` while `generation` holds) and its count: a slice
 * of the kept ids, after keeping only the rows whose search text contains `search` (folded as
 * the database folds) when there is one. A page past the end is empty.
 */
export async function pageOfList(
  caches: ListCaches,
  list: KeptList,
  search: string | undefined,
  page: { offset: number; limit: number },
): Promise<{ count: number; ids: number[] }> {
  const { ids } = search ? await found(caches, list, search) : await idsOf(caches, list);
  return { count: ids.length, ids: Array.from(ids.subarray(page.offset, page.offset + page.limit)) };
}

/** The list's ids: the whole list's when it is kept, else read alone when the list says how. */
function idsOf(caches: ListCaches, list: KeptList): Promise<OrderedList> | OrderedList {
  const whole = caches.positions.get(list.key, list.generation);
  if (whole) return whole;
  if (!list.loadIds) return caches.positions.getOrBuild(list.key, list.generation, list.load);
  return caches.positions.getOrBuild(`${list.key} ids`, list.generation, list.loadIds);
}

/** The rows of the list whose search text holds `search`, kept per term and generation. */
async function found(caches: ListCaches, list: KeptList, search: string): Promise<OrderedList> {
  const folded = await caches.terms.fold(search);
  // Searches are kept under keys of their own shape, so no term can name another entry.
  return caches.positions.getOrBuild(`${list.key} search:${folded}`, list.generation, async () => {
    const all = await caches.positions.getOrBuild(list.key, list.generation, list.load);
    return filterList(await searchable(caches, list.key, list.generation, all), folded);
  });
}

/**
 * A page of the list `key` with its rows, for lists whose rows can be read along with the list:
 * when the list is kept, `rowsOf` reads the page's rows by id; otherwise `readWithPage` reads
 * the page's rows and the whole list's ids in one statement, and the list is kept for the next
 * pages. An empty page (past the end) brings no ids, so the list is then loaded on its own.
 */
export async function pageRowsOfList<R>(
  caches: ListCaches,
  list: { key: string; generation: number; load: () => Promise<OrderedList> },
  page: { offset: number; limit: number },
  rowsOf: (ids: number[]) => Promise<R[]>,
  readWithPage: () => Promise<{ ids?: Float64Array; rows: R[] }>,
): Promise<{ count: number; rows: R[] }> {
  const kept = caches.positions.get(list.key, list.generation);
  if (!kept) {
    const read = await readWithPage();
    if (read.ids) {
      caches.positions.set(list.key, list.generation, { ids: read.ids });
      return { count: read.ids.length, rows: read.rows };
    }
  }
  const { ids } = kept ?? (await caches.positions.getOrBuild(list.key, list.generation, list.load));
  const pageIds = Array.from(ids.subarray(page.offset, page.offset + page.limit));
  return { count: ids.length, rows: pageIds.length > 0 ? await rowsOf(pageIds) : [] };
}

/**
 * The records of `ids` in their order, each kept in `cache` per generation under `keyOf(id)`:
 * a page of rows seen before reads nothing, and the missing ones are read and presented
 * together by `present` (which may leave out rows that are gone). When any is missing, the
 * missing ones of `readAhead` (the next page, say) are presented in the same statements, so a
 * reader paging on finds them kept.
 */
export async function keptRecords<R>(
  cache: GenerationCache<R>,
  generation: number,
  ids: number[],
  keyOf: (id: number) => string,
  present: (missing: number[]) => Promise<Array<{ id: number; record: R }>>,
  readAhead: number[] = [],
): Promise<R[]> {
  const known = new Map<number, R>();
  const missingOf = (candidates: number[]) =>
    candidates.filter((id) => {
      const record = cache.get(keyOf(id), generation);
      if (record !== undefined) known.set(id, record);
      return record === undefined;
    });
  const missing = missingOf(ids);
  if (missing.length > 0) {
    for (const { id, record } of await present([...missing, ...missingOf(readAhead)])) {
      known.set(id, record);
      cache.set(keyOf(id), generation, record);
    }
  }
  return ids.flatMap((id) => (known.has(id) ? [known.get(id) as R] : []));
}
