// RSS 2.0 and Atom 1.0 documents for the blog. Small enough to write directly; every text is
// XML-escaped and the HTML bodies travel escaped too (RSS description, Atom content type="html").
import type { BlogPost } from "@tarmac/contracts";

function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export interface FeedChannel {
  title: string;
  description: string;
  language: string;
  /** The public address of the site, without a trailing slash. */
  siteUrl: string;
  /** The feed's own address. */
  selfUrl: string;
}

function postUrl(channel: FeedChannel, post: BlogPost): string {
  return `${channel.siteUrl}/blog/${encodeURIComponent(post.slug)}`;
}

/** Relative links and images in a post would break in a feed reader: they become absolute. */
function absoluteLinks(html: string, siteUrl: string): string {
  return html.replace(/(href|src)="\/(?!\/)/g, `$1="${siteUrl}/`);
}

function imageType(url: string): string {
  const extension = /\.(\w+)(?:[?#].*)?$/.exec(url)?.[1]?.toLowerCase();
  const types: Record<string, string> = {
    svg: "image/svg+xml",
    png: "image/png",
    webp: "image/webp",
    gif: "image/gif",
  };
  return types[extension ?? ""] ?? "image/jpeg";
}

function newest(posts: BlogPost[]): Date {
  return posts.reduce((latest, post) => {
    const date = post.published_at ? new Date(post.published_at) : latest;
    return date > latest ? date : latest;
  }, new Date(0));
}

export function renderRss(channel: FeedChannel, posts: BlogPost[]): string {
  const items = posts.map((post) => {
    const url = postUrl(channel, post);
    return [
      "<item>",
      `<title>${xml(post.title)}</title>`,
      `<link>${xml(url)}</link>`,
      `<guid isPermaLink="true">${xml(url)}</guid>`,
      post.published_at ? `<pubDate>${new Date(post.published_at).toUTCString()}</pubDate>` : "",
      post.author ? `<dc:creator>${xml(post.author)}</dc:creator>` : "",
      post.cover_image
        ? `<enclosure url="${xml(new URL(post.cover_image, `${channel.siteUrl}/`).href)}" type="${imageType(post.cover_image)}" length="0"/>`
        : "",
      `<description>${xml(absoluteLinks(post.html, channel.siteUrl))}</description>`,
      "</item>",
    ].join("");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "<channel>",
    `<title>${xml(channel.title)}</title>`,
    `<link>${xml(`${channel.siteUrl}/blog`)}</link>`,
    `<description>${xml(channel.description)}</description>`,
    `<language>${xml(channel.language)}</language>`,
    `<lastBuildDate>${newest(posts).toUTCString()}</lastBuildDate>`,
    `<atom:link href="${xml(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}

export function renderAtom(channel: FeedChannel, posts: BlogPost[]): string {
  const entries = posts.map((post) => {
    const url = postUrl(channel, post);
    const date = post.published_at ?? new Date(0).toISOString();
    return [
      "<entry>",
      `<title>${xml(post.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${xml(url)}"/>`,
      `<id>${xml(url)}</id>`,
      `<published>${date}</published>`,
      `<updated>${date}</updated>`,
      `<author><name>${xml(post.author || channel.title)}</name></author>`,
      post.summary ? `<summary>${xml(post.summary)}</summary>` : "",
      `<content type="html">${xml(absoluteLinks(post.html, channel.siteUrl))}</content>`,
      "</entry>",
    ].join("");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xml(channel.language)}">`,
    `<title>${xml(channel.title)}</title>`,
    `<subtitle>${xml(channel.description)}</subtitle>`,
    `<link rel="alternate" type="text/html" href="${xml(`${channel.siteUrl}/blog`)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${xml(channel.selfUrl)}"/>`,
    `<id>${xml(`${channel.siteUrl}/blog`)}</id>`,
    `<updated>${newest(posts).toISOString()}</updated>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}

export const feedTitles: Record<string, { title: string; description: string }> = {
  en: {
    title: "Tarmac blog",
    description: "News and notes about Tarmac, the self-hosted build distribution service.",
  },
  de: {
    title: "Tarmac-Blog",
    description: "Neuigkeiten und Notizen zu Tarmac, der selbst gehosteten Build-Verteilung.",
  },
  ru: {
    title: "Блог Tarmac",
    description: "Новости и заметки о Tarmac — распространении сборок на своём сервере.",
  },
};
