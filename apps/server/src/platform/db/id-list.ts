import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "./client.ts";

/**
 * A list's ids in its order and, for searchable lists, each row's folded search text (same
 * order). Kept in memory per catalog version, a page is a slice, the count is the length and a
 * search is a pass over short strings: none of them reads the table again.
 */
export interface OrderedList {
  ids: Float64Array;
  texts?: string[];
}

/** Separates rows in the aggregated texts; removed from the texts themselves. */
const rowSeparator = "\u0001";

function rowsOf(result: unknown): Record<string, string | null>[] {
  // Both drivers (pg and PGlite) answer raw SQL with a result carrying `rows`.
  return (result as { rows: Record<string, string | null>[] }).rows;
}

const parseIds = (text: string | null | undefined) =>
  text ? Float64Array.from(text.split(","), Number) : new Float64Array(0);

/**
 * The ids a `select id … order by …` query answers, in its order, fetched as one
 * comma-separated text: one row parses far faster than 100,000. string_agg keeps the order of
 * its sorted subquery (PostgreSQL aggregates rows as they come).
 */
export async function selectIdList(db: Database, orderedIds: SQL): Promise<Float64Array> {
  const result = await db.execute(sql`select string_agg(id::text, ',') as ids from (${orderedIds}) listed`);
  return parseIds(rowsOf(result)[0]?.ids);
}

/** As selectIdList, for a query answering `id` and `search` (the row's folded search text). */
export async function selectSearchableList(db: Database, orderedRows: SQLWrapper): Promise<OrderedList> {
  const result = await db.execute(sql`
    select string_agg(id::text, ',') as ids,
           string_agg(translate(search, ${rowSeparator}, ' '), ${rowSeparator}) as texts
    from (${orderedRows}) listed`);
  const [row] = rowsOf(result);
  const ids = parseIds(row?.ids);
  return { ids, texts: ids.length === 0 ? [] : (row?.texts ?? "").split(rowSeparator) };
}

/** The rows of `list` whose text contains `folded` (a folded search term), in list order. */
export function filterList(list: OrderedList, folded: string): OrderedList {
  const texts = list.texts ?? [];
  const ids: number[] = [];
  for (let index = 0; index < texts.length; index += 1) {
    if ((texts[index] as string).includes(folded)) ids.push(list.ids[index] as number);
  }
  return { ids: Float64Array.from(ids) };
}

/** About the bytes a list holds (its weight in a cache). */
export function listWeight(list: OrderedList): number {
  let weight = list.ids.byteLength + 100;
  for (const text of list.texts ?? []) weight += 16 + text.length * 2;
  return weight;
}

/** `rows` in the order of `ids`, leaving out ids without a row. */
export function arrangeByIds<T extends { id: number }>(ids: readonly number[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
