import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "./client.ts";
import { rowsByScan, rowsContaining, type TrigramIndex, trigramIndexWeight } from "./trigram-index.ts";

/**
 * A list's ids in its order and, for searchable lists, each row's folded search text (same
 * order). Kept in memory per catalog version, a page is a slice, the count is the length and a
 * search is a pass over short strings: none of them reads the table again.
 */
export interface OrderedList {
  ids: Float64Array;
  texts?: SearchTexts;
  /** For long lists that are searched: which rows hold each trigram of their texts. */
  index?: TrigramIndex;
}

/** Every row's search text in one string (rows separated by U+0001) and where each row starts. */
export interface SearchTexts {
  joined: string;
  starts: Uint32Array;
}

/** Separates rows in the aggregated texts; removed from the texts themselves. */
const rowSeparator = "\u0001";

function rowsOf(result: unknown): Record<string, string | null>[] {
  // Both drivers (pg and PGlite) answer raw SQL with a result carrying `rows`.
  return (result as { rows: Record<string, string | null>[] }).rows;
}

/** A comma-separated list of ids (string_agg's answer) as numbers. */
export const parseIdList = (text: string | null | undefined) =>
  text ? Float64Array.from(text.split(","), Number) : new Float64Array(0);

/**
 * The ids a `select id … order by …` query answers, in its order, fetched as one
 * comma-separated text: one row parses far faster than 100,000. string_agg keeps the order of
 * its sorted subquery (PostgreSQL aggregates rows as they come).
 */
export async function selectIdList(db: Database, orderedIds: SQL): Promise<Float64Array> {
  const result = await db.execute(sql`select string_agg(id::text, ',') as ids from (${orderedIds}) listed`);
  return parseIdList(rowsOf(result)[0]?.ids);
}

/**
 * As selectIdList, for a query answering `id` and `search` (the row's folded search text). The
 * separator is taken out of the texts with replace(), which cost 100,000 apps' texts 10 ms where
 * translate() cost 95.
 */
export async function selectSearchableList(db: Database, orderedRows: SQLWrapper): Promise<OrderedList> {
  const result = await db.execute(sql`
    select string_agg(id::text, ',') as ids,
           string_agg(replace(search, ${rowSeparator}, ' '), ${rowSeparator}) as texts
    from (${orderedRows}) listed`);
  const [answer] = rowsOf(result);
  const ids = parseIdList(answer?.ids);
  const joined = ids.length === 0 ? "" : (answer?.texts ?? "");
  const starts = new Uint32Array(ids.length + 1);
  let row = 0;
  for (let at = joined.indexOf(rowSeparator); at >= 0; at = joined.indexOf(rowSeparator, at + 1)) {
    row += 1;
    starts[row] = at + 1;
  }
  starts[ids.length] = joined.length + 1;
  return { ids, texts: { joined, starts } };
}

/**
 * The rows of `list` whose text contains `folded` (a folded search term), in list order: through
 * the list's trigram index when it has one, else by the engine's substring search over all texts.
 */
export function filterList(list: OrderedList, folded: string): OrderedList {
  // A term holding the row separator would match across rows.
  if (!list.texts || folded.length === 0 || folded.includes(rowSeparator))
    return { ids: new Float64Array(0) };
  const rows =
    list.index && folded.length >= 3
      ? rowsContaining(list.texts, list.index, folded)
      : rowsByScan(list.texts, folded);
  const ids = new Float64Array(rows.length);
  for (let at = 0; at < rows.length; at += 1) ids[at] = list.ids[rows[at] as number] as number;
  return { ids };
}

/** About the bytes a list holds (its weight in a cache). */
export function listWeight(list: OrderedList): number {
  return (
    list.ids.byteLength +
    (list.texts ? list.texts.starts.byteLength + list.texts.joined.length * 2 : 0) +
    (list.index ? trigramIndexWeight(list.index) : 0) +
    100
  );
}

/** `rows` in the order of `ids`, leaving out ids without a row. */
export function arrangeByIds<T extends { id: number }>(ids: readonly number[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
