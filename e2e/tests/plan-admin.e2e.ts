// An instance without billing: organizations start unlimited, and the instance's administrator,
// signed in with a password, puts one on a plan with a limit of its own. The owner then sees who
// manages the plan, and the limit names the administrator when it stops them.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { seriousAccessibilityProblems } from "../helpers/axe.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fill, fixtures } from "../helpers/shared-files.ts";

const ADMIN = "ada.admin@plan-admin.test";
const ADMIN_PASSWORD = "Granite-Harbor-4417";
const OWNER = "otto.owner@plan-admin.test";
const TITLE = "Otter Works";

let harness: Harness;
let dataDir: string;
let adminToken: string;
let ownerToken: string;
let organizationId: number;

const admin = apiClient(
  () => harness.baseUrl,
  () => adminToken,
);
const owner = apiClient(
  () => harness.baseUrl,
  () => ownerToken,
);

/** The administrator's password, set through the reset mail in the dev outbox, as a person would. */
async function setAdminPassword() {
  await admin.postJson("/api/user/password/update/", { email: ADMIN });
  const code = /[?&]code=([\w-]+)/.exec(await admin.mailText(ADMIN))?.[1];
  expect(code).toBeTruthy();
  const set = await admin.postJson("/api/user/password/update/", { code, password: ADMIN_PASSWORD });
  expect(set.status).toBe(200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-plan-admin-"));
  // No billing provider and no DEFAULT_PLAN: new organizations get the unlimited plan.
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAILS: ADMIN };
  adminToken = issueAdminToken(env, ADMIN);
  ownerToken = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  await setAdminPassword();
  const created = await owner.postJson("/api/organizations/", { title: TITLE, subdomain: "otter-works" });
  expect(created.status).toBe(201);
  expect(created.body.plan).toMatchObject({ code: "unlimited" });
  organizationId = created.body.id;
  const app = await owner.uploadNewApp(organizationId, path.join(fixtures, "android/modern.apk"), "Otter");
  expect(app.status).toBe(201);
});

afterAll(async () => {
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("plans set by the instance's administrator", () => {
  it("signed in with a password, the administrator puts an organization on Free with one project of its own", async () => {
    const context = await harness.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(en.fields.email).fill(ADMIN);
    await page
      .getByLabel(new RegExp(`^${en.fields.password}`))
      .first()
      .fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: en.login.submit }).click();
    await page.waitForURL("**/dashboard");

    const menu = page.getByRole("navigation", { name: en.menu.label });
    await menu.getByRole("button", { name: en.menu.administration }).click();
    await menu.getByRole("link", { name: en.menu.admin_organizations }).click();
    await page.waitForURL("**/dashboard/admin/organizations");
    await page.getByRole("heading", { name: en.admin.title, level: 1 }).waitFor();
    await page.getByRole("searchbox", { name: en.admin.search }).fill(OWNER);
    await page.getByText(fill(en.admin.count_one, { count: "1" }), { exact: true }).waitFor();
    const row = page.getByRole("row").filter({ hasText: TITLE });
    await row.getByText(OWNER).waitFor();
    await row.getByText(fill(en.admin.usage_unlimited.projects_one, { count: "1" })).waitFor();
    // Checked as it rests: not with the pointer still over the menu link just followed.
    await page.mouse.move(1300, 880);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await row.getByRole("button", { name: fill(en.admin.manage_named, { title: TITLE }) }).click();
    const dialog = page.getByRole("dialog", { name: fill(en.admin.dialog_title, { title: TITLE }) });
    await dialog.getByText(en.admin.activity_empty).waitFor();
    await dialog.getByLabel(en.admin.plan, { exact: true }).selectOption("free");
    const projects = dialog.getByRole("radiogroup", { name: en.usage.projects });
    await projects.getByRole("radio", { name: fill(en.admin.limit_from_plan, { value: "3" }) }).waitFor();
    await projects.getByRole("radio", { name: en.admin.limit_own }).check();
    await dialog.getByLabel(en.admin.limit_input.projects).fill("1");
    expect(await seriousAccessibilityProblems(page, "[role=dialog]")).toEqual([]);
    await dialog.getByRole("button", { name: en.common.save }).click();
    await page.getByText(fill(en.admin.saved, { title: TITLE })).waitFor();

    // The log says what changed, from what to what, and who changed it.
    const log = dialog.getByTestId("activity-log");
    await log.getByText(fill(en.admin.activity_plan, { from: "Unlimited", to: "Free" })).waitFor();
    await log
      .getByText(
        fill(en.admin.activity_limit_change, {
          limit: en.usage.projects,
          from: en.admin.plans_limit,
          to: "1",
        }),
      )
      .waitFor();
    expect(await log.getByText(fill(en.admin.by, { email: ADMIN })).count()).toBe(2);

    await page.keyboard.press("Escape");
    await row.getByText(fill(en.admin.usage_of.projects_one, { used: "1", count: "1" })).waitFor();
    await row.getByText("Free", { exact: true }).waitFor();
    await context.close();

    const listed = await admin.api(`/api/admin/organizations/?search=${encodeURIComponent(OWNER)}`);
    expect(listed.body.results[0]).toMatchObject({
      plan: { code: "free" },
      overrides: { projects_limit: 1 },
      limits: { projects_limit: 1, user_limit: 5 },
    });
  });

  it("shows the owner who manages the plan, the plan and the new limits, with no prices", async () => {
    const context = await harness.signedInContext(ownerToken);
    const page = await context.newPage();
    await page.goto("/dashboard/organization/plan");
    await page.getByText(en.plan.managed_by_administrator).waitFor();
    expect(await page.getByRole("link", { name: ADMIN }).getAttribute("href")).toBe(`mailto:${ADMIN}`);
    await page.getByText("Free", { exact: true }).waitFor();
    await page.getByRole("progressbar", { name: `${en.usage.projects}: 1 of 1` }).waitFor();
    expect(await page.getByRole("heading", { name: en.plan.plans }).count()).toBe(0);
    expect(await page.getByText(/\/ month/).count()).toBe(0);
    await context.close();
  });

  it("names the administrator when the project limit stops a new project", async () => {
    const ask = fill(en.plan.way_out_administrator, { email: ADMIN });
    const context = await harness.signedInContext(ownerToken);
    const page = await context.newPage();
    await page.goto("/dashboard/apps");
    await page.getByRole("button", { name: en.apps.add }).first().click();
    await page.getByRole("dialog").getByText(`${en.upload.project_limit_note} ${ask}`).waitFor();
    await context.close();

    const refused = await owner.uploadNewApp(
      organizationId,
      path.join(fixtures, "android/localized.apk"),
      "Second",
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error_code: "projects_limit_reached",
      detail: `The plan's project limit is reached. Ask the administrator of this Tarmac instance (${ADMIN}) to raise it.`,
    });
  });
});
