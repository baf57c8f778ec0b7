// Every route and dialog of the app checked with axe-core (WCAG 2.1 AA): no serious or critical
// violation, on a desktop and on a phone, in English, German and Russian.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { seriousAccessibilityProblems } from "../helpers/axe.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

const OWNER = "alma.access@a11y.test";

let harness: Harness;
let dataDir: string;
let token: string;
let appId: number;
let linkKey: string;

const { api, postJson, uploadNewApp } = apiClient(
  () => harness.baseUrl,
  () => token,
);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-a11y-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAILS: OWNER };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  const organization = await postJson("/api/organizations/", { title: "Access", subdomain: "access-a11y" });
  const app = await uploadNewApp(organization.body.id, path.join(fixtures, "android/modern.apk"), "Access");
  appId = app.body.id;
  linkKey = (await api(`/api/distributions/?app=${appId}`)).body.results[0].key;
});

afterAll(async () => {
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signedIn(
  viewport: { width: number; height: number },
  language: string,
): Promise<BrowserContext> {
  const context = await harness.newContext({ viewport });
  await context.addCookies([{ name: "tarmac_token", value: token, url: harness.baseUrl }]);
  await context.addInitScript((lang) => localStorage.setItem("i18nextLng", lang), language);
  return context;
}

/** Opens the route, waits until the page has settled, and checks it. */
async function check(page: Page, route: string) {
  await page.goto(route);
  await page.waitForLoadState("networkidle");
  await page.locator("main, [role=main], form, h1").first().waitFor();
  return (await seriousAccessibilityProblems(page)).map((problem) => ({ route, ...problem }));
}

const publicRoutes = [
  "/login",
  "/signup",
  "/reset",
  "/activate",
  "/pricing",
  "/login-custom-client",
  "/login-custom-client?sso_error=provider",
];
const dashboardRoutes = () => [
  "/dashboard",
  "/dashboard/apps",
  `/dashboard/apps/${appId}`,
  "/dashboard/m",
  "/dashboard/profile",
  "/dashboard/organization/staff",
  "/dashboard/organization/teams",
  "/dashboard/organization/permission-groups",
  "/dashboard/organization/storage",
  "/dashboard/organization/mail-server",
  "/dashboard/organization/integrations",
  "/dashboard/feedback",
  "/dashboard/organization/sign-on",
  "/dashboard/organization/settings",
  "/dashboard/organization/plan",
  "/dashboard/admin/organizations",
];

describe("accessibility (axe-core, WCAG 2.1 AA)", () => {
  for (const [label, viewport] of [
    ["desktop", { width: 1366, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    for (const language of ["en", "de", "ru"]) {
      it(`has no serious violation on any route, ${label}, ${language}`, async () => {
        const context = await signedIn(viewport, language);
        const page = await context.newPage();
        const problems = [];
        for (const route of [...dashboardRoutes(), `/getapp/${linkKey}`])
          problems.push(...(await check(page, route)));
        const visitor = await (await harness.newContext({ viewport })).newPage();
        await visitor.context().addInitScript((lang) => localStorage.setItem("i18nextLng", lang), language);
        for (const route of publicRoutes) problems.push(...(await check(visitor, route)));
        await context.close();
        await visitor.context().close();
        expect(problems).toEqual([]);
      });
    }
  }

  it("has no serious violation in the dialogs", async () => {
    const context = await signedIn({ width: 1366, height: 900 }, "en");
    const page = await context.newPage();
    const problems = [];
    await page.goto("/dashboard/apps");
    await page.getByRole("button", { name: en.apps.add }).first().click();
    await page.getByRole("dialog").waitFor();
    problems.push(
      ...(await seriousAccessibilityProblems(page)).map((item) => ({ dialog: "add app", ...item })),
    );
    await page.keyboard.press("Escape");
    await page.goto(`/dashboard/apps/${appId}`);
    await page.getByRole("tab", { name: en.distribution.tab }).click();
    await page.getByRole("button", { name: en.distribution.new_link }).click();
    await page.getByRole("dialog").waitFor();
    problems.push(
      ...(await seriousAccessibilityProblems(page)).map((item) => ({ dialog: "install link", ...item })),
    );
    await context.close();
    expect(problems).toEqual([]);
  });
});
