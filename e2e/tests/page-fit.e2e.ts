// Pages fit the screen they are on: the versions table on a phone and a laptop, select labels,
// toasts beside the language switcher, every platform in the install list, and a quiet console
// when the server says no as designed.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

const OWNER = "fitting@fit.test";
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
// The narrowest phones still sold and in use (iPhone SE first generation, small Android phones).
const SMALL_PHONE = { width: 320, height: 640 };
const ANDROID_PHONE =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

let harness: Harness;
let dataDir: string;
let token: string;
let androidApp: number;
const contexts: BrowserContext[] = [];

const { postJson, uploadNewApp } = apiClient(
  () => harness.baseUrl,
  () => token,
);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-fit-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  const organization = (await postJson("/api/organizations/", { title: "Fitting", subdomain: "fitting-e2e" }))
    .body.id as number;
  androidApp = (await uploadNewApp(organization, path.join(fixtures, "android/modern.apk"), "Rocket")).body
    .id;
  await uploadNewApp(organization, path.join(fixtures, "apple/ipa/adhoc.ipa"), "Orbit");
  await uploadNewApp(organization, path.join(fixtures, "windows/demo.msi"), "Desk");
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signedInPage(options: Parameters<Harness["signedInContext"]>[1]): Promise<Page> {
  const context = await harness.signedInContext(token, options);
  contexts.push(context);
  return context.newPage();
}

const overflowsPage = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Whether the element's own text is wider than the room it has (cut off or scrolled). */
const cutOff = (element: Locator) => element.evaluate((node) => node.scrollWidth > node.clientWidth);

/** How many lines the element's text takes on screen. */
const lines = (element: Locator) =>
  element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = Array.from(range.getClientRects())
      .filter((rect) => rect.width > 0)
      .map((rect) => Math.round(rect.top));
    // Boxes on one line differ by a few pixels at most (a button beside a link).
    return tops
      .sort((a, b) => a - b)
      .filter((top, index, all) => index === 0 || top - (all[index - 1] ?? 0) > 8).length;
  });

/**
 * The element lies between the screen's left and right edges as the page first shows it: nothing
 * is scrolled sideways first, as a person would not know to.
 */
async function expectWithinScreenWidth(page: Page, element: Locator): Promise<void> {
  await element.waitFor();
  const box = await element.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport).toBeTruthy();
  if (!box || !viewport) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
}

/** The app's page, its build's Download between the screen's edges and no page wider than the screen. */
async function expectDownloadInReach(page: Page): Promise<void> {
  await page.goto(`/dashboard/apps/${androidApp}`);
  await expectWithinScreenWidth(page, page.getByRole("link", { name: /^Download 2\.0\.0-beta\.1/ }));
  expect(await overflowsPage(page)).toBe(false);
}

describe("the versions table", () => {
  it("is a list of cards on a phone, Download in reach, nothing wider than the screen", async () => {
    const page = await signedInPage({ viewport: PHONE });
    await expectDownloadInReach(page);
    expect(await page.getByRole("columnheader").count()).toBe(0);
  });

  it("shows every column head, version, size and the actions whole on a 1366 px laptop", async () => {
    const page = await signedInPage({ viewport: LAPTOP });
    await expectDownloadInReach(page);
    const heads = await page.getByRole("columnheader").all();
    expect(heads.length).toBeGreaterThan(5);
    for (const head of heads) expect(await cutOff(head), await head.innerText()).toBe(false);
    // A version number, a size or the row's actions broken over two lines read as two things.
    const row = page.getByRole("row").nth(1);
    for (const text of ["2.0.0-beta.1", "16.4 KB"]) expect(await lines(row.getByText(text)), text).toBe(1);
    expect(await lines(row.getByRole("cell").last()), "actions").toBe(1);
  });
});

describe("select labels", () => {
  it("show the webhook format whole", async () => {
    const page = await signedInPage({ viewport: LAPTOP });
    await page.goto(`/dashboard/apps/${androidApp}`);
    await page.getByRole("tab", { name: en.integrations.tab }).click();
    await page.getByRole("button", { name: en.integrations.add_webhook }).first().click();
    const dialog = page.getByRole("dialog", { name: en.integrations.add_webhook });
    const format = dialog.getByRole("combobox", { name: en.integrations.format });
    expect(await format.inputValue()).toBe(en.integrations.formats.standard);
    expect(await cutOff(format)).toBe(false);
  });

  it("show the mail server's security choice whole", async () => {
    const page = await signedInPage({ viewport: LAPTOP });
    await page.goto("/dashboard/organization/mail-server");
    const security = page.getByRole("combobox", { name: en.mail_server.security });
    await security.click();
    await page.getByRole("option", { name: en.mail_server.security_none }).click();
    expect(await security.inputValue()).toBe(en.mail_server.security_none);
    expect(await cutOff(security)).toBe(false);
  });
});

describe("toasts", () => {
  for (const viewport of [PHONE, LAPTOP]) {
    it(`leave the language switcher free at ${viewport.width} px`, async () => {
      const page = await signedInPage({ viewport });
      await page.goto("/dashboard/profile");
      await page.getByRole("button", { name: en.common.save }).first().click();
      const toast = page.locator("[data-alert-type=success]").filter({ hasText: en.profile.saved });
      await toast.waitFor();
      const language = page.getByRole("combobox", { name: en.language });
      const [a, b] = [await toast.boundingBox(), await language.boundingBox()];
      expect(a && b).toBeTruthy();
      if (!a || !b) return;
      const apart =
        a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart).toBe(true);
    });
  }
});

describe("installing on a phone", () => {
  it("lists the apps of every platform under All", async () => {
    const page = await signedInPage({ viewport: SMALL_PHONE, userAgent: ANDROID_PHONE });
    await page.goto("/dashboard/m");
    const cards = page.getByRole("article");
    await cards.first().waitFor();
    // Every choice can be seen and reached, however narrow the phone.
    const names = [en.apps.all_platforms, ...Object.values(en.platforms as Record<string, string>)];
    for (const name of names)
      await expectWithinScreenWidth(page, page.locator("label", { hasText: new RegExp(`^${name}$`) }));
    await page.locator("label", { hasText: new RegExp(`^${en.apps.all_platforms}$`) }).click();
    expect(await page.getByRole("radio", { name: en.apps.all_platforms, exact: true }).isChecked()).toBe(
      true,
    );
    await expect.poll(async () => (await cards.all()).length).toBe(3);
    for (const title of ["Rocket", "Orbit", "Desk"])
      expect(await page.getByRole("article", { name: title }).count()).toBe(1);
    expect(await overflowsPage(page)).toBe(false);
  });
});

describe("the console", () => {
  it("stays free of errors when a wrong password is refused", async () => {
    const context = await harness.newContext({ viewport: LAPTOP });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    // Chromium itself reports every 4xx resource as "Failed to load resource"; the app's own
    // logging is what must stay quiet.
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
        errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("/login");
    await page.getByLabel(en.fields.email).fill(OWNER);
    await page.getByLabel(new RegExp(`^${en.fields.password}\\b`)).fill("not-the-password-1");
    const refused = page.waitForResponse((response) => response.url().includes("/api/user/login/"));
    await page.getByRole("button", { name: en.login.submit }).click();
    expect((await refused).status()).toBeGreaterThanOrEqual(400);
    // The server's refusal, as the page shows it.
    await page.getByText("Unable to log in with provided credentials.").waitFor();
    expect(errors).toEqual([]);
  });
});
