import { type ContentLanguage, contentLanguages } from "@tarmac/contracts";

export const fallbackLanguage: ContentLanguage = "en";

function asContentLanguage(tag: string | undefined): ContentLanguage | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return (contentLanguages as readonly string[]).includes(primary ?? "")
    ? (primary as ContentLanguage)
    : null;
}

/**
 * The language of an answer: `?lang=` when it names one we write in, else the first of the
 * Accept-Language header's choices (by weight) that we do, else English.
 */
export function resolveLanguage(
  lang: string | undefined,
  acceptLanguage: string | undefined,
): ContentLanguage {
  const asked = asContentLanguage(lang);
  if (asked) return asked;
  const choices = (acceptLanguage ?? "")
    .split(",")
    .map((part, position) => {
      const [tag, ...params] = part.split(";");
      const weight = params.map((param) => /^\s*q=([\d.]+)/.exec(param)?.[1]).find(Boolean);
      return { tag, weight: weight === undefined ? 1 : Number(weight), position };
    })
    .filter((choice) => choice.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.position - b.position);
  for (const choice of choices) {
    const language = asContentLanguage(choice.tag);
    if (language) return language;
  }
  return fallbackLanguage;
}

/** The languages to read for `language`, best first: itself, then English. */
export function languagesFor(language: ContentLanguage): ContentLanguage[] {
  return language === fallbackLanguage ? [language] : [language, fallbackLanguage];
}

/** Of rows that share a slug in several languages, the one in `language`, else the English one. */
export function preferLanguage<Row extends { slug: string; language: string }>(
  rows: Row[],
  language: string,
): Row[] {
  const chosen = new Map<string, Row>();
  for (const row of rows) {
    const current = chosen.get(row.slug);
    if (!current || (current.language !== language && row.language === language)) chosen.set(row.slug, row);
  }
  // Keeps the order the rows came in (newest first where that matters).
  return rows.filter((row) => chosen.get(row.slug) === row);
}
