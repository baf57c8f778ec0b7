import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectClientConfig } from "../src/modules/web-host/web-host.routes.ts";
import { createTestApp, type TestApp } from "./helpers/test-app.ts";

let t: TestApp;
const content = Buffer.from("PK-pretend-build-0123456789");

beforeAll(async () => {
  t = await createTestApp();
  await t.platform.storage.put("org-1/builds/app.apk", Readable.from([content]));
}, 60_000);
afterAll(() => t.close());

async function signedPath(options: { fileName?: string; contentType?: string; ttl?: number } = {}) {
  const url = await t.platform.storage.signedUrl("org-1/builds/app.apk", {
    expiresInSeconds: options.ttl ?? 60,
    fileName: options.fileName,
    contentType: options.contentType,
  });
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

describe("signed file downloads", () => {
  it("serves the whole file with its type and name, without any cookie", async () => {
    const response = await t.app.inject(
      await signedPath({
        fileName: "My App 1.0.apk",
        contentType: "application/vnd.android.package-archive",
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/vnd.android.package-archive");
    expect(response.headers["content-disposition"]).toContain('filename="My App 1.0.apk"');
    expect(response.headers["accept-ranges"]).toBe("bytes");
    expect(createHash("sha256").update(response.rawPayload).digest("hex")).toBe(
      createHash("sha256").update(content).digest("hex"),
    );
  });

  it("serves byte ranges with 206 and refuses impossible ones with 416", async () => {
    const url = await signedPath();
    const partial = await t.app.inject({ url, headers: { range: "bytes=3-7" } });
    expect(partial.statusCode).toBe(206);
    expect(partial.headers["content-range"]).toBe(`bytes 3-7/${content.length}`);
    expect(partial.body).toBe("prete");
    const impossible = await t.app.inject({ url, headers: { range: "bytes=999-" } });
    expect(impossible.statusCode).toBe(416);
    expect(impossible.headers["content-range"]).toBe(`bytes */${content.length}`);
  });

  it("answers HEAD with the length and no body", async () => {
    const response = await t.app.inject({ method: "HEAD", url: await signedPath() });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-length"]).toBe(String(content.length));
    expect(response.body).toBe("");
  });

  it("refuses tampered and expired links", async () => {
    const url = await signedPath({ fileName: "a.apk" });
    expect((await t.app.inject(url.replace("name=a.apk", "name=b.apk"))).statusCode).toBe(403);
    const expired = await signedPath({ ttl: 10 });
    const past = expired.replace(/expires=\d+/, `expires=${Math.floor(Date.now() / 1000) - 5}`);
    expect((await t.app.inject(past)).statusCode).toBe(403);
  });

  it("answers 404 for a signed link to a missing file and for a traversal attempt", async () => {
    const url = await t.platform.storage.signedUrl("org-1/builds/missing.apk", { expiresInSeconds: 60 });
    expect((await t.app.inject(new URL(url).pathname + new URL(url).search)).statusCode).toBe(404);
    expect(
      (await t.app.inject("/api/files/..%2F..%2Fsecret.key?expires=9999999999&signature=aaaaaaaaaaaa"))
        .statusCode,
    ).toBe(404);
  });
});

describe("web host", () => {
  it("serves translations for en, de and ru only", async () => {
    mkdirSync(path.join(t.config.DATA_DIR, "no-web-build"), { recursive: true });
    for (const lang of ["en", "de", "ru"]) {
      const response = await t.app.inject(`/media/i18n/${lang}.json`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toContain("application/json");
      expect(typeof response.json()).toBe("object");
    }
    expect((await t.app.inject("/media/i18n/fr.json")).statusCode).toBe(404);
    expect((await t.app.inject("/media/i18n/..%2F..%2Fpackage.json")).statusCode).toBe(404);
  });

  it("explains a missing web build instead of failing silently", async () => {
    const response = await t.app.inject("/dashboard/apps/1");
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain("npm run build");
  });

  it("injects runtime configuration into index.html safely", () => {
    const html = injectClientConfig("<head><!--tarmac-config--></head>", {
      gtm_container_id: null,
      cookie_domain: "",
      public_url: "http://x</script><script>alert(1)//",
    });
    expect(html).toContain('<script id="tarmac-config" type="application/json">');
    expect(html).not.toContain("</script><script>");
  });
});

describe("web host with a build", () => {
  let built: TestApp;

  beforeAll(async () => {
    const dist = path.join(t.config.DATA_DIR, "dist");
    mkdirSync(path.join(dist, "assets"), { recursive: true });
    writeFileSync(
      path.join(dist, "index.html"),
      "<html><head><!--tarmac-config--></head><body>app</body></html>",
    );
    writeFileSync(path.join(dist, "assets", "main-abc123.js"), "console.log(1)");
    built = await createTestApp({
      WEB_DIST_DIR: dist,
      GTM_CONTAINER_ID: "GTM-ABC123",
      COOKIE_DOMAIN: "example.com",
    });
  }, 60_000);
  afterAll(() => built.close());

  it("falls back to the app for client-side routes, with the config injected", async () => {
    for (const url of ["/", "/login", "/dashboard/apps/5", "/some/unknown/path"]) {
      const response = await built.app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain('"gtm_container_id":"GTM-ABC123"');
      expect(response.body).toContain('"cookie_domain":"example.com"');
    }
  });

  it("serves hashed assets with long caching and allows the tag manager in the CSP", async () => {
    const response = await built.app.inject("/assets/main-abc123.js");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers["content-security-policy"]).toContain("https://www.googletagmanager.com");
  });

  it("keeps unknown API paths as JSON 404s", async () => {
    const response = await built.app.inject("/api/nothing-here/");
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: "Not found." });
  });
});
