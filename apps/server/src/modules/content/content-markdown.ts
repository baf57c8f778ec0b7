// Editors write Markdown; visitors get HTML. Raw HTML in the Markdown and anything that could
// run script (javascript: links, event attributes, inline styles) are removed after rendering,
// so an editor's mistake or a stolen admin session cannot put script on the public site.
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

const marked = new Marked({ gfm: true, breaks: false, async: false });

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "h1", "h2", "del", "input"],
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title", "width", "height", "loading"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    input: ["type", "checked", "disabled"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https", "data"] },
  allowProtocolRelative: false,
  transformTags: {
    // Links leaving the site must not hand the opener to the page they open.
    a: (tagName, attribs) => ({
      tagName,
      attribs: /^https?:/i.test(attribs.href ?? "") ? { ...attribs, rel: "noopener noreferrer" } : attribs,
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
  },
  exclusiveFilter: (frame) => frame.tag === "input" && frame.attribs.type !== "checkbox",
};

export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return sanitizeHtml(html, sanitizeOptions).trim();
}

export interface MarkdownSection {
  heading: string;
  markdown: string;
}

/** Cuts Markdown at its level-two headings: the text before the first one, then each section. */
export function splitSections(markdown: string): { intro: string; sections: MarkdownSection[] } {
  const lines = markdown.split(/\r?\n/);
  const intro: string[] = [];
  const sections: { heading: string; lines: string[] }[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^(```|~~~)/.test(line.trim())) inFence = !inFence;
    const heading = inFence ? null : /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1]) sections.push({ heading: heading[1], lines: [] });
    else (sections.at(-1)?.lines ?? intro).push(line);
  }
  return {
    intro: intro.join("\n").trim(),
    sections: sections.map((section) => ({
      heading: section.heading,
      markdown: section.lines.join("\n").trim(),
    })),
  };
}

/** A heading as plain text (Markdown emphasis and code marks dropped, entities left to React). */
export function plainText(markdown: string): string {
  return sanitizeHtml(marked.parseInline(markdown) as string, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

/** A menu is a Markdown list of links: `- [Pricing](/pricing)`; other lines are ignored. */
export function parseMenu(markdown: string): { title: string; url: string }[] {
  const items: { title: string; url: string }[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    const match = /^\s*[-*+]\s+\[([^\]]+)\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/.exec(line);
    if (!match?.[1] || !match[2]) continue;
    const url = match[2];
    // Only site paths and web/mail addresses: a menu must not carry a script URL either.
    if (!/^(\/|https?:\/\/|mailto:)/i.test(url)) continue;
    items.push({ title: plainText(match[1]), url });
  }
  return items;
}
