// A tester's report arrives the way the Android SDK sends it; an admin finds it in the
// organization's inbox, opens it from the keyboard, looks at the screenshot and resolves it.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { androidFeedbackBody } from "../../apps/server/test/feedback/sdk-requests.ts";
import { pngImage } from "../../apps/server/test/helpers/images.ts";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { seriousAccessibilityProblems } from "../helpers/axe.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

const OWNER = "fay.feedback@feedback.test";

let harness: Harness;
let dataDir: string;
let token: string;
let appId: number;

const { api, postJson, uploadNewApp } = apiClient(
  () => harness.baseUrl,
  () => token,
);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-feedback-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAILS: OWNER };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  const organization = await postJson("/api/organizations/", { title: "Heard", subdomain: "heard-e2e" });
  const app = (await uploadNewApp(organization.body.id, path.join(fixtures, "android/modern.apk"), "Heard"))
    .body;
  appId = app.id;
  const sdkKey = (await api(`/api/organizations/${organization.body.id}/`)).body.sdk_key;
  const body = androidFeedbackBody(pngImage(360, 640), {
    app_key: app.app_key,
    sdk_key: sdkKey,
    tag: "bug",
    description: "Checkout button overlaps the keyboard",
    email: "tess@example.test",
    build_version: app.current_version.version,
    system_version: "14",
    device_name: "Pixel 8",
    device_uudid: "e2e-device",
    navigation_stack: "Main > Cart > Checkout",
  });
  const sent = await fetch(`${harness.baseUrl}/api/feedback-mobile/`, {
    method: "POST",
    headers: body.headers,
    body: body.payload,
  });
  expect(sent.status).toBe(201);
});

afterAll(async () => {
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the feedback inbox", () => {
  it("opens a report from the keyboard, shows the screenshot and resolves it", async () => {
    const context = await harness.signedInContext(token);
    const page = await context.newPage();
    await page.goto("/dashboard/feedback");
    const list = page.getByRole("table", { name: en.feedback.list_label });
    const row = list.getByRole("button", { name: /Checkout button overlaps the keyboard/ });
    await row.waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await row.focus();
    await page.keyboard.press("Enter");
    const detail = page.getByTestId("feedback-detail");
    const screenshot = detail.getByRole("img", {
      name: en.feedback.screenshot_alt.replace("{{app}}", "Heard"),
    });
    await screenshot.waitFor();
    // The screenshot really loads from storage.
    await page.waitForFunction(
      () =>
        (document.querySelector("[data-testid=feedback-detail] img") as HTMLImageElement | null)
          ?.naturalWidth === 360,
    );
    expect(page.url()).toMatch(/\/dashboard\/feedback\/\d+$/);
    expect(await detail.textContent()).toContain("Main > Cart > Checkout");

    await detail.getByRole("combobox", { name: en.feedback.status }).click();
    await page.getByRole("option", { name: en.feedback.statuses["2"] }).click();
    await detail.getByLabel(en.feedback.note).fill("Fixed in the next build");
    await detail.getByRole("button", { name: en.feedback.save }).click();
    await page.getByText(en.feedback.saved).waitFor();
    const item = (await api(`/api/feedback-mobile-data/?app_id=${appId}&status=2`)).body.results[0];
    expect(item).toMatchObject({ status: 2, internal_note: "Fixed in the next build" });
    await context.close();
  });
});
