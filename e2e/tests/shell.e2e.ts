import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/harness.ts";

const translations = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../apps/web/public/media/i18n/${lang}.json`, import.meta.url), "utf8"));
const en = translations("en");
const de = translations("de");

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness?.close());

describe("web shell routes", () => {
  it("sends / to /login and shows the login form", async () => {
    const page = await (await harness.newContext()).newPage();
    await page.goto("/");
    await page.waitForURL("**/login");
    // The login area loads lazily: wait for it rather than sampling visibility once.
    await page.getByRole("heading", { name: en.login.title }).waitFor();
    await page.getByLabel(en.fields.email).waitFor();
    expect(await page.getByLabel(en.fields.email).isVisible()).toBe(true);
  });

  it("sends /dashboard to /login without a token, to come back afterwards", async () => {
    const page = await (await harness.newContext()).newPage();
    await page.goto("/dashboard");
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/dashboard");
  });

  it("sends an unknown path to /not-found", async () => {
    const page = await (await harness.newContext()).newPage();
    await page.goto("/no/such/place");
    // It remembers the address, so the not-found page can ask whether it moved.
    await page.waitForURL((url) => url.pathname === "/not-found");
    expect(new URL(page.url()).searchParams.get("from")).toBe("/no/such/place");
  });

  it("renders German after switching the language, and keeps it after a reload", async () => {
    const page = await (await harness.newContext()).newPage();
    await page.goto("/login");
    await page.getByRole("heading", { name: en.login.title }).waitFor();
    await page.getByLabel(en.language).selectOption("de");
    await page.getByRole("heading", { name: de.login.title }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await page.reload();
    await page.getByLabel(de.fields.email).waitFor();
    await page.getByRole("heading", { name: de.login.title }).waitFor();
  });

  it("reaches pricing, which the reference listed after the catch-all", async () => {
    const page = await (await harness.newContext()).newPage();
    await page.goto("/pricing");
    await page.waitForLoadState("networkidle");
    expect(new URL(page.url()).pathname).toBe("/pricing");
  });
});
