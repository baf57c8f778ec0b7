import type { SeoData } from "../../api/content.ts";

function setMetaTag(attribute: "name" | "property", key: string, content: string): void {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!tag) {
    tag = document.createElement("meta");
    tag.setAttribute(attribute, key);
    document.head.appendChild(tag);
  }
  tag.content = content;
}

/** Copies a page's SEO fields into the document head; the title is set by useDocumentTitle. */
export function applySeo(seo: SeoData): void {
  if (seo.meta_description) {
    setMetaTag("name", "description", seo.meta_description);
    setMetaTag("property", "og:description", seo.meta_description);
  }
  if (seo.seo_title) setMetaTag("property", "og:title", seo.seo_title);
  if (seo.twitter_image) {
    setMetaTag("name", "twitter:card", "summary_large_image");
    setMetaTag("name", "twitter:image", seo.twitter_image);
  }
}
