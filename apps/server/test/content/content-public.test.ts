import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// The seeded site, read as visitors read it: every content call of the spec, per language.
describe("public content calls", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

  it("answers the landing with sections, SEO fields and the plans' prices, per language", async () => {
    const en = await get("/api/lp/");
    expect(en.statusCode).toBe(200);
    const landing = en.json();
    expect(landing.language).toBe("en");
    expect(landing.seo.seo_title).toMatch(/^Tarmac/);
    expect(landing.seo.meta_description).toContain("install links");
    expect(landing.seo.twitter_image).toBe("/media/social/tarmac-card.svg");
    const headings = landing.sections.map((section: { heading: string }) => section.heading);
    expect(headings).toContain("Moving from Updraft");
    const pricing = landing.sections.find((section: { heading: string }) => section.heading === "Pricing");
    // Written from the plans table: Team costs $29.00 with 25 projects.
    expect(pricing.html).toContain("<strong>Team</strong>");
    expect(pricing.html).toContain("$29.00");

    const de = (await get("/api/lp/?lang=de")).json();
    expect(de.language).toBe("de");
    expect(de.sections.map((section: { heading: string }) => section.heading)).toContain("Preise");
    const ru = (await get("/api/lp/", { "accept-language": "ru-RU,ru;q=0.9,en;q=0.8" })).json();
    expect(ru.language).toBe("ru");
    expect(ru.title).toBe("Каждая сборка — у тех, кто её тестирует");
    // A language nobody wrote in gets English.
    expect((await get("/api/lp/", { "accept-language": "fr-FR" })).json().language).toBe("en");
  });

  it("answers the three menus as lists of links", async () => {
    for (const menu of ["main-menu", "footer-menu", "mobile-menu"]) {
      for (const lang of ["en", "de", "ru"]) {
        const reply = await get(`/api/${menu}/?lang=${lang}`);
        expect(reply.statusCode).toBe(200);
        const body = reply.json();
        expect(body.language).toBe(lang);
        expect(body.items.length).toBeGreaterThan(3);
        for (const item of body.items) expect(item.url).toMatch(/^\//);
      }
    }
    const footer = (await get("/api/footer-menu/?lang=de")).json();
    expect(footer.items).toContainEqual({ title: "Impressum", url: "/imprint" });
  });

  it("answers pages by slug in the visitor's language, and 404 for a page that does not exist", async () => {
    for (const slug of ["about", "privacy", "terms", "imprint", "moving-from-updraft"]) {
      for (const lang of ["en", "de", "ru"]) {
        const reply = await get(`/api/pages/${slug}/?lang=${lang}`);
        expect(reply.statusCode, `${slug} ${lang}`).toBe(200);
        const page = reply.json();
        expect(page.language).toBe(lang);
        expect(page.title.length).toBeGreaterThan(3);
        expect(page.html).toMatch(/<p>/);
      }
    }
    // The legal pages name the instance's administrator as the contact.
    expect((await get("/api/pages/privacy/")).json().html).toContain("mailto:admin@tarmac.test");
    expect((await get("/api/pages/nothing-here/")).statusCode).toBe(404);
  });

  it("answers sign-up texts, the SDK page, the footer, the FAQ and dashboard settings", async () => {
    const reg = (await get("/api/reg/?lang=de")).json();
    expect(reg.title).toBe("Ihr Tarmac-Konto anlegen");
    expect(reg.html).toContain('href="/terms"');
    const sdk = (await get("/api/page-sdk/")).json();
    expect(sdk.html).toContain("http://tarmac.test/api/");
    expect((await get("/api/footer/?lang=ru")).json().body).toContain("Tarmac");
    const faq = (await get("/api/faq/?lang=en")).json();
    expect(faq.items.length).toBeGreaterThanOrEqual(6);
    expect(faq.items[0].question).toBe("Which files can I upload?");
    expect(faq.items[0].answer_html).toContain("<code>.apk</code>");
    const dashboard = (await get("/api/dashboard-setting/?lang=ru")).json();
    expect(dashboard.welcome.title).toBe("Добро пожаловать в Tarmac");
    expect(dashboard.announcements).toHaveLength(1);
  });

  it("answers what's new newest first, and one entry by id", async () => {
    const list = (await get("/api/whats-new/?lang=de")).json();
    expect(list.results.length).toBe(4);
    const dates = list.results.map((entry: { published_at: string }) => entry.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const one = await get(`/api/whats-new/?id=${list.results[1].id}&lang=de`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(list.results[1]);
    expect((await get("/api/whats-new/?id=no-such-entry")).statusCode).toBe(404);
  });

  it("answers where an old address moved, in any spelling of it, and 404 when it moved nowhere", async () => {
    for (const old of ["/impressum", "/impressum/", "http://elsewhere.example/impressum?x=1", "impressum"]) {
      const reply = await get(`/api/url-redirect/?url_old=${encodeURIComponent(old)}`);
      expect(reply.statusCode, old).toBe(200);
      expect(reply.json()).toEqual({ url_old: old, url_new: "/imprint" });
    }
    expect((await get("/api/url-redirect/?url_old=%2Fnowhere")).statusCode).toBe(404);
    expect((await get("/api/url-redirect/")).statusCode).toBe(400);
  });

  it("revalidates with ETags: the same answer is a 304, another language another tag", async () => {
    const first = await get("/api/pages/about/?lang=en");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    expect(first.headers.vary).toContain("Accept-Language");
    const again = await get("/api/pages/about/?lang=en", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    const weak = await get("/api/pages/about/?lang=en", { "if-none-match": `W/${etag}, "other"` });
    expect(weak.statusCode).toBe(304);
    const german = await get("/api/pages/about/?lang=de", { "if-none-match": etag });
    expect(german.statusCode).toBe(200);
    expect(german.headers.etag).not.toBe(etag);
  });
});

describe("the blog", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url });

  it("lists posts newest first in pages, with author, date and cover, falling back to English", async () => {
    const first = await get("/api/blog/?lang=de&page_size=2");
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.count).toBe(3);
    expect(page.results.map((post: { slug: string }) => post.slug)).toEqual([
      "uploads-from-ci",
      "install-links-on-phones",
    ]);
    expect(page.results[0]).toMatchObject({ language: "en", author: "The Tarmac team" });
    expect(page.results[0].cover_image).toBe("/media/blog/ci-uploads.svg");
    expect(page.next).toContain("page=2");
    const second = (await get("/api/blog/?lang=de&page_size=2&page=2")).json();
    expect(second.results).toHaveLength(1);
    // This post is written in German too, so German visitors read that version.
    expect(second.results[0]).toMatchObject({ language: "de", title: "Build-Verteilung im eigenen Betrieb" });
    expect(second.next).toBeNull();
  });

  it("answers a post by slug, and 404 for an unknown one", async () => {
    const post = (await get("/api/blog/install-links-on-phones/")).json();
    expect(post.title).toBe("Install links that work on the phone in your hand");
    expect(post.html).toContain("<h2>iOS over the air</h2>");
    expect(post.published_at).toBe("2026-11-24T09:00:00.000Z");
    expect((await get("/api/blog/no-such-post/")).statusCode).toBe(404);
  });

  it("offers RSS and Atom feeds with absolute links", async () => {
    const rss = await get("/api/blog/rss/?lang=ru");
    expect(rss.statusCode).toBe(200);
    expect(rss.headers["content-type"]).toContain("application/rss+xml");
    expect(rss.body).toContain("<title>Блог Tarmac</title>");
    expect(rss.body).toContain("<link>http://tarmac.test/blog/self-hosted-build-distribution</link>");
    expect(rss.body.match(/<item>/g)).toHaveLength(3);
    const atom = await get("/api/blog/atom/");
    expect(atom.headers["content-type"]).toContain("application/atom+xml");
    expect(atom.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">');
    expect(atom.body).toContain("<name>The Tarmac team</name>");
    expect(atom.body.match(/<entry>/g)).toHaveLength(3);
    const etag = atom.headers.etag as string;
    expect(
      (await t.app.inject({ url: "/api/blog/atom/", headers: { "if-none-match": etag } })).statusCode,
    ).toBe(304);
  });
});
