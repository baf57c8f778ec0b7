// The public site as visitors see it in each language, and its editor as the instance's
// administrator uses it: every public route of spec §2 renders its own content in en, de and ru.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";

const ADMIN = "erin.editor@public-site.test";
const ADMIN_PASSWORD = "Lantern-Quarry-8812";
const languages = ["en", "de", "ru"] as const;
type Language = (typeof languages)[number];
const texts: Record<Language, Record<string, Record<string, string>>> = Object.fromEntries(
  languages.map((lang) => [
    lang,
    JSON.parse(
      readFileSync(new URL(`../../apps/web/public/media/i18n/${lang}.json`, import.meta.url), "utf8"),
    ),
  ]),
) as never;

let harness: Harness;
let dataDir: string;
let adminToken: string;
const admin = apiClient(
  () => harness.baseUrl,
  () => adminToken,
);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-public-site-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAILS: ADMIN };
  adminToken = issueAdminToken(env, ADMIN);
  harness = await startHarness(env);
});

afterAll(async () => {
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A browser whose stored interface language is `lang`, as after choosing it once. */
async function visitorIn(lang: Language): Promise<BrowserContext> {
  const context = await harness.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((value) => localStorage.setItem("lang", value), lang);
  return context;
}

/** What the content calls answer in `lang`: the page titles the browser must show. */
async function contentTitle(url: string, lang: Language): Promise<string> {
  const response = await fetch(`${harness.baseUrl}${url}${url.includes("?") ? "&" : "?"}lang=${lang}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { title: string }).title;
}

describe("every public route in three languages", () => {
  for (const lang of languages) {
    it(`renders each public page in ${lang}`, async () => {
      const t = texts[lang];
      const brand = "Tarmac";
      // Route -> the document title the page sets once its content is there.
      const routes: [string, string][] = [
        ["/get-my-udid", t.udid?.title as string],
        ["/getapp", t.getapp?.title as string],
        ["/signup", t.signup?.title as string],
        ["/activate", t.activate?.title as string],
        ["/login", t.login?.title as string],
        ["/login-custom-client", t.custom_login?.title as string],
        ["/reset", t.reset?.title as string],
        ["/update-password", t.update_password?.title as string],
        ["/not-found", t.not_found?.title as string],
        ["/pricing", t.pricing?.title as string],
        ["/blog", t.blog?.title as string],
        ["/whats-new", t.whats_new?.title as string],
        ["/promo", await contentTitle("/api/lp/", lang)],
        ["/about", await contentTitle("/api/pages/about/", lang)],
        ["/privacy", await contentTitle("/api/pages/privacy/", lang)],
        ["/imprint", await contentTitle("/api/pages/imprint/", lang)],
        ["/faq", (await (await fetch(`${harness.baseUrl}/api/faq/?lang=${lang}`)).json()).title],
        ["/sdk", await contentTitle("/api/page-sdk/", lang)],
        [
          "/blog/self-hosted-build-distribution",
          await contentTitle("/api/blog/self-hosted-build-distribution/", lang),
        ],
      ];
      const context = await visitorIn(lang);
      const page = await context.newPage();
      for (const [route, title] of routes) {
        expect(title, route).toBeTruthy();
        await page.goto(route);
        await page.waitForFunction((expected) => document.title === expected, `${title} · ${brand}`, {
          timeout: 15_000,
        });
        expect(await page.locator("html").getAttribute("lang"), route).toBe(lang);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
      }
      await context.close();
    });
  }

  it("shows the editors' menus, footer, landing sections, FAQ answers and blog bylines", async () => {
    const context = await visitorIn("de");
    const page = await context.newPage();
    await page.goto("/promo");
    await page.getByRole("heading", { level: 2, name: "Umstieg von Updraft" }).waitFor();
    const nav = page.getByRole("navigation", { name: texts.de.nav?.main_menu as string });
    await nav.getByRole("link", { name: "Preise" }).waitFor();
    const footer = page.getByRole("navigation", { name: texts.de.nav?.footer_menu as string });
    await footer.getByRole("link", { name: "Impressum" }).click();
    await page.waitForURL("**/imprint");
    await page.getByRole("heading", { level: 1, name: "Impressum" }).waitFor();
    expect(await page.getByRole("link", { name: ADMIN }).count()).toBeGreaterThan(0);

    await page.goto("/faq");
    await page.getByText("Android .apk und .aab", { exact: false }).first().waitFor();
    await page.goto("/blog");
    await page.getByRole("link", { name: "Build-Verteilung im eigenen Betrieb" }).waitFor();
    // Posts not written in German are shown in English.
    await page.getByRole("link", { name: "Uploading builds from CI, resumably" }).waitFor();
    await page.getByText("The Tarmac team", { exact: false }).first().waitFor();
    await context.close();
  });

  it("sends a moved address to its new place, and an unknown one to not-found", async () => {
    const context = await visitorIn("en");
    const page = await context.newPage();
    await page.goto("/impressum");
    await page.waitForURL((url) => url.pathname === "/imprint");
    await page.getByRole("heading", { level: 1, name: "Imprint" }).waitFor();
    await page.goto("/docs/sdk");
    await page.waitForURL((url) => url.pathname === "/sdk");
    await page.goto("/no-such-page");
    await page.waitForURL((url) => url.pathname === "/not-found");
    await page.getByRole("heading", { name: texts.en.not_found?.title as string }).waitFor();
    await context.close();
  });
});

describe("the site content editor", () => {
  it("lets the administrator write a draft, preview it sanitized, publish it, and visitors read it", async () => {
    // The administrator signs in with a password set through the dev outbox, as a person would.
    await admin.postJson("/api/user/password/update/", { email: ADMIN });
    const code = /[?&]code=([\w-]+)/.exec(await admin.mailText(ADMIN))?.[1];
    expect(
      (await admin.postJson("/api/user/password/update/", { code, password: ADMIN_PASSWORD })).status,
    ).toBe(200);
    const login = await admin.postJson("/api/user/login/", { email: ADMIN, password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    const context = await harness.signedInContext(login.body.token);
    const page = await context.newPage();
    const t = texts.en.content_admin as unknown as Record<
      "title" | "new" | "slug" | "title_field" | "body" | "preview" | "saved",
      string
    >;

    await page.goto("/dashboard/admin/content");
    await page.getByRole("heading", { name: t.title }).waitFor();
    await page.getByRole("button", { name: t.new }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: new RegExp(`^${t.slug}`) }).fill("careers");
    await dialog.getByRole("textbox", { name: t.title_field, exact: true }).fill("Careers");
    await dialog
      .getByRole("textbox", { name: t.body })
      .fill(
        "We are **hiring**.\n\n<script>window.injected = true</script>\n\n[Write to us](javascript:alert(1))",
      );
    await dialog.getByRole("tab", { name: t.preview }).click();
    const preview = dialog.getByTestId("content-preview");
    await preview.locator("strong", { hasText: "hiring" }).waitFor();
    expect(await preview.locator("script").count()).toBe(0);
    expect(await preview.locator("a[href^='javascript']").count()).toBe(0);
    await dialog.getByRole("button", { name: texts.en.common?.save as string }).click();
    await page.getByText(t.saved).waitFor();

    const visitor = await (await visitorIn("en")).newPage();
    // A draft is not public: the address goes to not-found.
    await visitor.goto("/careers");
    await visitor.waitForURL((url) => url.pathname === "/not-found");

    await page.getByRole("button", { name: "Edit page careers (en)" }).click();
    const statuses = (texts.en.content_admin as unknown as { statuses: Record<string, string> }).statuses;
    await page
      .getByRole("dialog")
      .getByText(statuses.published as string, { exact: true })
      .click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: texts.en.common?.save as string })
      .click();
    await page.getByText(t.saved).waitFor();

    await visitor.goto("/careers");
    await visitor.getByRole("heading", { level: 1, name: "Careers" }).waitFor();
    await visitor.locator("strong", { hasText: "hiring" }).waitFor();
    expect(await visitor.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
    await context.close();
  });
});
