import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIosBuild } from "../distribution/distribution-fixtures.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** The head of a served page as name -> content, for meta tags by name or property. */
function metaOf(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const match of html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g)) {
    tags[match[1] as string] = (match[2] as string).replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  }
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  return { ...tags, title: title.replace(/&amp;/g, "&") };
}

// Chats fetch a shared link without running the app: the served HTML itself carries the preview.
describe("titles and link previews in the served HTML", () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = tempDir("web-dist");
    writeFileSync(
      path.join(dist, "index.html"),
      '<!doctype html><html lang="en"><head><title>Tarmac</title><!--tarmac-config--></head><body></body></html>',
    );
    t = await createTestApp({ WEB_DIST_DIR: dist, PUBLIC_URL: "https://tarmac.test" });
  });
  afterAll(() => t.close());

  const page = async (url: string, headers: Record<string, string> = {}) => {
    const reply = await t.app.inject({ url, headers });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-type"]).toContain("text/html");
    return reply.body;
  };

  it("gives the promo page the landing's SEO fields in the visitor's language", async () => {
    const html = await page("/promo", { "accept-language": "de-DE,de;q=0.9" });
    expect(html).toContain('<html lang="de"');
    const meta = metaOf(html);
    expect(meta.title).toBe(
      "Tarmac — selbst gehostete Verteilung von Android-, iOS-, Windows- und macOS-Builds",
    );
    expect(meta["og:title"]).toBe(meta.title);
    expect(meta["og:description"]).toContain("Installationslinks");
    expect(meta["og:image"]).toBe("https://tarmac.test/media/social/tarmac-card.svg");
    expect(meta["og:url"]).toBe("https://tarmac.test/promo");
    expect(meta["og:locale"]).toBe("de_DE");
    expect(meta["twitter:card"]).toBe("summary_large_image");
    // The runtime configuration is still injected.
    expect(html).toContain('<script id="tarmac-config"');
  });

  it("titles content pages, pricing, the blog and its posts, with the feeds on blog pages", async () => {
    expect(metaOf(await page("/about?lang=ru")).title).toBe("О Tarmac — Tarmac");
    expect(metaOf(await page("/pricing")).title).toBe("Pricing — Tarmac");
    expect(metaOf(await page("/faq?lang=de")).title).toBe("Häufige Fragen — Tarmac");
    const post = await page("/blog/install-links-on-phones");
    const meta = metaOf(post);
    expect(meta.title).toBe("Install links that work on the phone in your hand — Tarmac");
    expect(meta["og:type"]).toBe("article");
    expect(meta["og:description"]).toMatch(/^How the install page picks/);
    expect(meta["og:image"]).toBe("https://tarmac.test/media/blog/install-links.svg");
    expect(post).toContain(
      'type="application/rss+xml" title="Tarmac blog" href="https://tarmac.test/api/blog/rss/?lang=en"',
    );
    expect(post).toContain('type="application/atom+xml"');
  });

  it("falls back to the landing's preview for pages that have none, and leaves the dashboard alone", async () => {
    const unknown = metaOf(await page("/no-such-page"));
    expect(unknown.title).toMatch(/^Tarmac — self-hosted/);
    const dashboard = await page("/dashboard/apps");
    expect(dashboard).toContain("<title>Tarmac</title>");
    expect(dashboard).not.toContain("og:title");
  });

  it("shows an install link's app name, version and icon, and nothing for a members-only link", async () => {
    const { organization, owner } = await createOrganization(t, { title: "Skyline" });
    const { app } = await createIosBuild(t, organization.id);
    const links = await t.app.inject({
      url: `/api/distributions/?app=${app.id}`,
      headers: authHeader(owner.token),
    });
    const link = links.json().results[0];
    const meta = metaOf(await page(`/getapp/${link.key}`));
    expect(meta.title).toBe("Install Tarmac Ad Hoc 2.3.1");
    expect(meta["og:image"]).toMatch(/^https:\/\/tarmac\.test\//);

    const members = await t.app.inject({
      method: "POST",
      url: "/api/distributions/",
      headers: authHeader(owner.token),
      payload: { app: app.id, access: "members" },
    });
    expect(members.statusCode).toBe(201);
    const hidden = metaOf(await page(`/getapp/${members.json().key}`));
    expect(hidden.title).not.toContain("Tarmac Ad Hoc");
  });
});
