// Builds end to end: an APK and an IPA go through the add-app modal of the real web app (sent over
// tus, then preloaded by upload_id), appear in the apps list with the version, build number and
// icon the inspector read, and the downloaded file is byte for byte the uploaded one.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

// What the reference tools read from the committed fixtures (see the inspector's tests).
const builds = [
  { file: "android/modern.apk", project: "Modern", version: "2.0.0-beta.1", build: "2000" },
  { file: "apple/ipa/adhoc.ipa", project: "Ad Hoc", version: "2.3.1", build: "231" },
];

let harness: Harness;
let dataDir: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-uploads-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
  const token = issueAdminToken(env, "owner@uploads.test");
  harness = await startHarness(env);
  const created = await fetch(`${harness.baseUrl}/api/organizations/`, {
    method: "POST",
    headers: { Authorization: `Token ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title: "Uploads Inc", subdomain: "uploads-inc" }),
  });
  expect(created.status).toBe(201);
  context = await harness.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  await context.addCookies([{ name: "tarmac_token", value: token, url: harness.baseUrl }]);
  page = await context.newPage();
});

afterAll(async () => {
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function expectLoadedImage(image: Locator): Promise<void> {
  await expect
    .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), { timeout: 10_000 })
    .toBeGreaterThan(0);
}

async function uploadThroughModal(build: (typeof builds)[number]): Promise<void> {
  const requests: string[] = [];
  const record = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/uploads/") || url.pathname === "/api/applicationadd/") {
      requests.push(
        `${request.method()} ${url.pathname}${request.postData()?.includes('name="upload_id"') ? " upload_id" : ""}`,
      );
    }
  };
  page.on("request", record);
  await page.goto("/dashboard/apps");
  await page.getByRole("button", { name: en.apps.add }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(en.upload.file_label).setInputFiles(path.join(fixtures, build.file));
  await dialog.getByText(en.COMPLETED).waitFor({ timeout: 30_000 });
  page.off("request", record);
  // The bytes went over tus, then the preload named the finished upload instead of sending the file.
  expect(requests[0]).toBe("POST /api/uploads/");
  expect(requests).toContainEqual(expect.stringMatching(/^PATCH \/api\/uploads\/[0-9a-f]{32}\/$/));
  expect(requests.at(-1)).toBe("POST /api/applicationadd/ upload_id");
  await expect.poll(() => dialog.getByLabel(en.apps.version).inputValue()).toBe(build.version);
  await expect.poll(() => dialog.getByLabel(en.apps.build).inputValue()).toBe(build.build);
  await dialog.getByLabel(en.upload.project_title).fill(build.project);
  await dialog.getByRole("button", { name: en.upload.add, exact: true }).click();
  await page.getByText(en["FILE UPLOADED SUCCESSFULLY"]).waitFor();
  // A new app opens its page, behind the build's install link, its QR code and the ways to share them.
  await page.waitForURL(/\/dashboard\/apps\/\d+$/);
  const link = dialog.getByLabel(en.share.link_label);
  await expect.poll(() => link.inputValue()).toMatch(/\/getapp\/[\w-]{22}$/);
  await expectLoadedImage(dialog.getByRole("img", { name: en.share.qr_alt }));
  await dialog.getByRole("button", { name: en.share.send_testers }).waitFor();
  // An ad-hoc IPA installs on its devices: nothing to warn of.
  expect(await dialog.getByText(en.share.warnings_title).count()).toBe(0);
  await dialog.getByRole("button", { name: en.share.done }).click();
  await dialog.waitFor({ state: "hidden" });
  const row = page.getByRole("row").filter({ hasText: build.version });
  await expect.poll(() => row.count()).toBe(1);
  await expect.poll(() => row.getByRole("cell", { name: build.build, exact: true }).count()).toBe(1);
}

describe("uploading builds", () => {
  it("uploads an APK and an IPA through the modal and lists them with version, build and icon", async () => {
    for (const build of builds) await uploadThroughModal(build);

    await page.goto("/dashboard/apps");
    for (const build of builds) {
      const row = page.getByRole("row").filter({ hasText: build.project });
      await row.waitFor();
      const text = en.apps.version_build
        .replace("{{version}}", build.version)
        .replace("{{build}}", build.build);
      await expect.poll(() => row.getByText(text).count()).toBe(1);
      await expectLoadedImage(row.locator("img"));
    }
  });

  it("downloads a build whose SHA-256 is the uploaded file's", async () => {
    await page.goto("/dashboard/apps");
    await page.getByRole("row").filter({ hasText: "Ad Hoc" }).getByRole("link").first().click();
    await page.waitForURL(/\/dashboard\/apps\/\d+$/);
    const link = page.getByRole("link", { name: new RegExp(`^${en.apps.download_named.split("{{")[0]}`) });
    const [download] = await Promise.all([page.waitForEvent("download"), link.first().click()]);
    expect(download.suggestedFilename()).toBe("adhoc.ipa");
    const saved = await download.path();
    const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
    expect(digest(saved)).toBe(digest(path.join(fixtures, builds[1]?.file ?? "")));
  });
});
