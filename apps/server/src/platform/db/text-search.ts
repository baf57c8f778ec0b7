import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { text } from "drizzle-orm/pg-core";

/** A LIKE pattern matching `text` anywhere, where `%`, `_` and `\` in it are literal characters. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * A stored, folded (lower case, accents removed) copy of what a row is searched by, kept by
 * PostgreSQL itself and indexed by trigrams: `searchText(sql\`title\`)`, or the person form
 * `searchText(sql\`public.person_search_text(first_name, last_name, email)\`)`.
 */
export function searchText(folded: SQL) {
  return text("search_text").generatedAlwaysAs(folded);
}

/** The folding of a title-like column, for searchText(). */
export const foldedColumn = (column: string) => sql.raw(`public.search_fold(coalesce(${column}, ''))`);

/**
 * The row's search text contains `text`, ignoring case and accents ("cafe" finds "Café"): a
 * trigram-index lookup whose recheck compares stored text, so a search never reads the table.
 */
export function searchMatches(searchTextColumn: SQLWrapper, text: string): SQL {
  return sql`${searchTextColumn} like search_fold(${likePattern(text)})`;
}

/** `value` contains `text`, folded as above, for small sets that need no index (one app's rows). */
export function foldedContains(value: SQLWrapper, text: string): SQL {
  return sql`search_fold(${value}) like search_fold(${likePattern(text)})`;
}

/**
 * Folds search terms the way the database folds what they are compared with (search_fold), so
 * in-memory searches of folded texts agree with it exactly; a term is folded once and
 * remembered (folding never changes).
 */
export class SearchTermFolder {
  private readonly folded = new Map<string, string>();

  constructor(
    private readonly db: { execute: (query: SQL) => Promise<unknown> },
    private readonly maxTerms = 10_000,
  ) {}

  async fold(term: string): Promise<string> {
    // Printable ASCII has no accents to remove: folding is lower-casing, without a round trip.
    if (/^[\x20-\x7e]*$/.test(term)) return term.toLowerCase();
    const known = this.folded.get(term);
    if (known !== undefined) return known;
    const result = (await this.db.execute(sql`select search_fold(${term}) as folded`)) as {
      rows: { folded: string }[];
    };
    const folded = result.rows[0]?.folded ?? term.toLowerCase();
    if (this.folded.size >= this.maxTerms) this.folded.clear();
    this.folded.set(term, folded);
    return folded;
  }
}
