import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// The test app lists admin@tarmac.test in ADMIN_EMAILS.
describe("the site content editor", () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let someone: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = authHeader((await createUserWithToken(t, { email: "admin@tarmac.test" })).token);
    someone = authHeader((await createUserWithToken(t)).token);
  });
  afterAll(() => t.close());

  const draft = {
    kind: "page",
    slug: "careers",
    language: "en",
    status: "draft",
    title: "Careers",
    body: "We build **Tarmac**.",
  };
  const write = (method: "POST" | "PUT", url: string, payload: object, headers = admin) =>
    t.app.inject({ method, url, payload, headers });

  it("is for instance administrators only, who are refused before their input is judged", async () => {
    expect((await t.app.inject({ url: "/api/admin/content/" })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/admin/content/", headers: someone })).statusCode).toBe(403);
    expect((await write("POST", "/api/admin/content/", { nonsense: true }, someone)).statusCode).toBe(403);
    expect((await write("POST", "/api/admin/content/preview/", { body: "x" }, someone)).statusCode).toBe(403);
    const seeded = await t.app.inject({ url: "/api/admin/content/?kind=page&language=de", headers: admin });
    expect(seeded.statusCode).toBe(200);
    expect(seeded.json().results.map((entry: { slug: string }) => entry.slug)).toEqual([
      "about",
      "imprint",
      "moving-from-updraft",
      "privacy",
      "terms",
    ]);
  });

  it("keeps a draft private until it is published, and dates it at its first publication", async () => {
    const created = await write("POST", "/api/admin/content/", draft);
    expect(created.statusCode).toBe(201);
    const entry = created.json();
    expect(entry).toMatchObject({ slug: "careers", status: "draft", published_at: null });
    expect((await t.app.inject({ url: "/api/pages/careers/" })).statusCode).toBe(404);

    const published = await write("PUT", `/api/admin/content/${entry.id}/`, {
      ...draft,
      status: "published",
    });
    expect(published.statusCode).toBe(200);
    const publishedAt = published.json().published_at;
    expect(publishedAt).not.toBeNull();
    const page = await t.app.inject({ url: "/api/pages/careers/" });
    expect(page.statusCode).toBe(200);
    expect(page.json().html).toBe("<p>We build <strong>Tarmac</strong>.</p>");

    const edited = await write("PUT", `/api/admin/content/${entry.id}/`, {
      ...draft,
      status: "published",
      body: "We are hiring.",
    });
    expect(edited.json().published_at).toBe(publishedAt);
    const after = await t.app.inject({
      url: "/api/pages/careers/",
      headers: { "if-none-match": page.headers.etag as string },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().body).toBe("We are hiring.");

    // Unpublishing hides it again; German visitors of an English-only page read the English one.
    expect((await t.app.inject({ url: "/api/pages/careers/?lang=de" })).json().language).toBe("en");
    await write("PUT", `/api/admin/content/${entry.id}/`, { ...draft, status: "draft" });
    expect((await t.app.inject({ url: "/api/pages/careers/" })).statusCode).toBe(404);
  });

  it("sanitizes what it renders: no script, event handlers or script links reach visitors", async () => {
    const body = [
      "Hello <script>alert(1)</script>",
      '<img src="x" onerror="alert(2)">',
      "[click](javascript:alert(3)) and [home](/promo)",
      '<a href="https://example.com" onclick="alert(4)">out</a>',
    ].join("\n\n");
    const preview = await write("POST", "/api/admin/content/preview/", { body });
    expect(preview.statusCode).toBe(200);
    const { html } = preview.json();
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:/i);
    expect(html).toContain('<a href="/promo">home</a>');

    const created = await write("POST", "/api/admin/content/", {
      ...draft,
      slug: "unsafe",
      status: "published",
      body,
    });
    expect(created.statusCode).toBe(201);
    const page = (await t.app.inject({ url: "/api/pages/unsafe/" })).json();
    expect(page.html).toBe(html);
    // The Markdown is kept as written, for the editor; only the HTML is cleaned.
    expect(page.body).toBe(body);
  });

  it("refuses a second entry under the same key and redirects to script addresses", async () => {
    const duplicate = await write("POST", "/api/admin/content/", {
      ...draft,
      slug: "about",
      status: "published",
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().slug[0]).toMatch(/already exists/);
    const redirect = { kind: "redirect", slug: "/old", language: "en", status: "published", title: "" };
    const unsafe = await write("POST", "/api/admin/content/", { ...redirect, body: "javascript:alert(1)" });
    expect(unsafe.statusCode).toBe(400);
    expect(Object.keys(unsafe.json())).toEqual(["body"]);
    const invalid = await write("POST", "/api/admin/content/", {
      ...draft,
      language: "fr",
      slug: "has space",
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json()).sort()).toEqual(["language", "slug"]);

    const saved = await write("POST", "/api/admin/content/", { ...redirect, body: "/about" });
    expect(saved.statusCode).toBe(201);
    const found = await t.app.inject({ url: "/api/url-redirect/?url_old=/old" });
    expect(found.json()).toEqual({ url_old: "/old", url_new: "/about" });
  });

  it("removes entries; what is removed stays removed after a restart of the seeding", async () => {
    const { results } = (
      await t.app.inject({ url: "/api/admin/content/?kind=faq&language=ru", headers: admin })
    ).json();
    const [faq] = results;
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/content/${faq.id}/`,
      headers: admin,
    });
    expect(removed.statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/admin/content/${faq.id}/`, headers: admin })).statusCode).toBe(
      404,
    );
    // Russian visitors now read the English FAQ.
    expect((await t.app.inject({ url: "/api/faq/?lang=ru" })).json().language).toBe("en");

    const { ContentSeeder } = await import("../../src/modules/content/content-seeder.ts");
    const again = new ContentSeeder({
      db: t.database.db,
      listTariffs: async () => [],
      adminEmail: null,
      publicUrl: "http://tarmac.test",
    });
    await again.ensureSeeded();
    expect((await t.app.inject({ url: "/api/faq/?lang=ru" })).json().language).toBe("en");
  });
});
