// The head of index.html for one page: its title and the Open Graph and Twitter tags a chat
// reads when a link is shared (crawlers do not run the app, so these must be in the HTML).

export interface PageHead {
  title: string;
  description: string | null;
  image: string | null;
  type: "website" | "article";
  url: string;
  language: string;
  /** Feeds offered for this page (the blog's RSS and Atom). */
  feeds?: { type: string; title: string; href: string }[];
}

/** Fills a page's head from its path and the visitor's language hints. */
export type DescribePage = (
  path: string,
  hints: { lang?: string; acceptLanguage?: string },
) => Promise<PageHead | null>;

function attribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const locales: Record<string, string> = { en: "en_US", de: "de_DE", ru: "ru_RU" };

export function renderHeadTags(head: PageHead): string {
  const tags: [string, string, string | null][] = [
    ["name", "description", head.description],
    ["property", "og:site_name", "Tarmac"],
    ["property", "og:type", head.type],
    ["property", "og:title", head.title],
    ["property", "og:description", head.description],
    ["property", "og:url", head.url],
    ["property", "og:image", head.image],
    ["property", "og:locale", locales[head.language] ?? null],
    ["name", "twitter:card", head.image ? "summary_large_image" : "summary"],
    ["name", "twitter:title", head.title],
    ["name", "twitter:description", head.description],
    ["name", "twitter:image", head.image],
  ];
  const lines = tags
    .filter((tag): tag is [string, string, string] => Boolean(tag[2]))
    .map(([kind, key, value]) => `<meta ${kind}="${key}" content="${attribute(value)}" />`);
  lines.push(`<link rel="canonical" href="${attribute(head.url)}" />`);
  for (const feed of head.feeds ?? []) {
    lines.push(
      `<link rel="alternate" type="${attribute(feed.type)}" title="${attribute(feed.title)}" href="${attribute(feed.href)}" />`,
    );
  }
  return lines.join("\n    ");
}

/** index.html with the page's title, language and tags in place of the build's defaults. */
export function applyPageHead(html: string, head: PageHead): string {
  return html
    .replace(/<html lang="[^"]*"/, `<html lang="${attribute(head.language)}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${attribute(head.title)}</title>\n    ${renderHeadTags(head)}`);
}
