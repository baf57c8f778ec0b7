// What a new user trips over in the first hour, walked in the browser as they would walk it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { devices } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

const OWNER = "olga.owner@firsthour.test";
const PASSWORD = "Quartz-Lantern-8841";

let harness: Harness;
let dataDir: string;
let token: string;
let orbitAppId: number;
let orbitOrgId: number;

const { api, postJson, uploadNewApp, mailText } = apiClient(
  () => harness.baseUrl,
  () => token,
);

async function uploadApp(organization: number, fixture: string, title: string): Promise<number> {
  const app = await uploadNewApp(organization, path.join(fixtures, fixture), title);
  expect(app.status).toBe(201);
  return app.body.id;
}

/** A browser context signed in as the owner (the session cookie the web app reads). */
async function signedInContext(options?: Parameters<Harness["newContext"]>[0]) {
  const context = await harness.newContext(options);
  await context.addCookies([{ name: "tarmac_token", value: token, url: harness.baseUrl }]);
  return context;
}

/** The owner's password, set through the reset mail in the dev outbox, as a person would. */
async function setOwnerPassword() {
  await postJson("/api/user/password/update/", { email: OWNER });
  const code = /[?&]code=([\w-]+)/.exec(await mailText(OWNER))?.[1];
  expect(code).toBeTruthy();
  expect((await postJson("/api/user/password/update/", { code, password: PASSWORD })).status).toBe(200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-first-hour-"));
  // The free plan's limits, as a hosted instance gives them (without billing, organizations start unlimited).
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAILS: OWNER, DEFAULT_PLAN: "free" };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  await setOwnerPassword();
});

afterAll(async () => {
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the first hour", () => {
  it("opens the dashboard, not the login form, for a signed-in person at /", async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    await page.goto("/");
    await page.waitForURL("**/dashboard");
    expect(new URL(page.url()).pathname).toBe("/dashboard");
  });

  it("comes back to a members-only install page after signing in from it", async () => {
    const organization = await postJson("/api/organizations/", {
      title: "Orbit",
      subdomain: "orbit-first-hour",
    });
    orbitOrgId = organization.body.id;
    orbitAppId = await uploadApp(orbitOrgId, "android/modern.apk", "Orbit");
    const link = await postJson("/api/distributions/", { app: orbitAppId, access: "members" });
    expect(link.status).toBe(201);

    const page = await (await harness.newContext()).newPage();
    await page.goto(`/getapp/${link.body.key}`);
    await page.getByRole("link", { name: en.install.sign_in }).click();
    await page.waitForURL("**/login?next=*");
    await page.getByLabel(en.fields.email).fill(OWNER);
    await page
      .getByLabel(new RegExp(`^${en.fields.password}`))
      .first()
      .fill(PASSWORD);
    await page.getByRole("button", { name: en.login.submit }).click();
    await page.waitForURL(`**/getapp/${link.body.key}`);
    await page.getByRole("heading", { name: "Orbit" }).first().waitFor();
  });

  it("says why Import CSV is unavailable, and filters the install list by every platform", async () => {
    const context = await signedInContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(`/dashboard/apps/${orbitAppId}`);
    await page.getByRole("tab", { name: en.distribution.tab }).click();
    const importButton = page.getByRole("button", { name: en.testers.import_csv });
    await importButton.waitFor();
    expect(await importButton.isDisabled()).toBe(true);
    expect(await page.getByText(en.testers.import_csv_needs_group).isVisible()).toBe(true);

    await page.goto("/dashboard/m");
    for (const platform of [en.platforms.windows, en.platforms.macos]) {
      await page.getByRole("radio", { name: platform }).waitFor({ state: "attached" });
    }
  });

  it("adds a zipped macOS app as macOS, saying so before Add, although the dialog said Windows", async () => {
    const context = await signedInContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto("/dashboard/apps");
    await page.getByRole("button", { name: en.apps.add }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(en.upload.file_label).setInputFiles({
      name: "SomeTool.app.zip",
      mimeType: "application/zip",
      buffer: readFileSync(path.join(fixtures, "apple/mac/tarmac-mac.zip")),
    });
    await dialog.getByText(en.COMPLETED).waitFor({ timeout: 30_000 });
    const note = en.upload.zip_read_as.replaceAll("{{found}}", "macOS").replaceAll("{{chosen}}", "Windows");
    await dialog.getByText(note).waitFor();
    await dialog.getByLabel(en.upload.project_title).fill("Some Tool");
    await dialog.getByRole("button", { name: en.upload.add, exact: true }).click();
    await page.waitForURL(/\/dashboard\/apps\/\d+$/);
    await dialog.getByRole("button", { name: en.share.done }).click();
    const appId = Number(new URL(page.url()).pathname.split("/").pop());
    expect((await api(`/api/applications/${appId}/`)).body).toMatchObject({ app_type: 3 });
  });

  it("says a bad activation link is invalid and offers a new one; a used one hides the offer", async () => {
    const page = await (await harness.newContext()).newPage();
    // A short (malformed) code was "Server Error" before; an unknown one must read the same.
    for (const code of ["short", "x".repeat(40)]) {
      await page.goto(`/activate/${code}`);
      await page.getByText(en.activate.invalid).waitFor();
      expect(await page.getByText(en.activate.resend_title).isVisible()).toBe(true);
    }
    const email = "nina.new@firsthour.test";
    const registered = await fetch(`${harness.baseUrl}/api/user/register/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: "Meadow-Pebble-5521", first_name: "Nina", last_name: "New" }),
    });
    expect(registered.status).toBe(201);
    const link = /\/activate\/[\w-]+/.exec(await mailText(email))?.[0];
    await page.goto(link as string);
    await page.getByRole("button", { name: en.activate.submit }).click();
    await page.getByText(en.activate.done_opening).waitFor();
    expect(await page.getByText(en.activate.resend_title).count()).toBe(0);
    // Signed in by the activation, the person lands in the dashboard without a second click.
    await page.waitForURL("**/dashboard");
  });

  it("names a members-only link apart from the permanent one, and shows the access choices whole", async () => {
    const context = await signedInContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    // The permanent link is made when the links are first read; a members-only one comes after.
    const appId = await uploadApp(orbitOrgId, "android/localized.apk", "Comet");
    expect((await api(`/api/distributions/?app=${appId}`)).body.count).toBe(1);
    expect((await postJson("/api/distributions/", { app: appId, access: "members" })).status).toBe(201);
    await page.goto(`/dashboard/apps/${appId}`);
    await page.getByRole("tab", { name: en.distribution.tab }).click();
    const title = (target: string) => en.distribution.link_for.replace("{{target}}", target);
    await page.getByRole("article", { name: title(en.distribution.app_link), exact: true }).waitFor();
    await page
      .getByRole("article", {
        name: title(`${en.distribution.app_link} · ${en.distribution.access.members}`),
      })
      .waitFor();

    await page.getByRole("button", { name: en.distribution.new_link }).click();
    const dialog = page.getByRole("dialog");
    const members = dialog.getByText(en.distribution.access.members, { exact: true });
    await members.waitFor();
    // On a phone-sized screen the whole text shows, nothing cut off with an ellipsis.
    const cut = await members.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
    expect(cut).toBe(false);
  });

  it("starts the invitation page from the names the admin typed", async () => {
    const email = "ivy.invited@firsthour.test";
    const invited = await postJson("/api/usersinorgs/", {
      userid: email,
      organization: orbitOrgId,
      role: 5,
      first_name: "Ivy",
      last_name: "Invited",
    });
    expect(invited.status).toBe(201);
    const link = /\/activate\/[\w-]+/.exec(await mailText(email))?.[0];
    const page = await (await harness.newContext()).newPage();
    await page.goto(link as string);
    await page.getByRole("heading", { name: en.activate.invitation_title }).waitFor();
    expect(await page.getByLabel(en.fields.first_name).inputValue()).toBe("Ivy");
    expect(await page.getByLabel(en.fields.last_name).inputValue()).toBe("Invited");
  });

  it("prompts a new organization to upload its first build, and the prompt opens the upload", async () => {
    const nebula = await postJson("/api/organizations/", { title: "Nebula", subdomain: "nebula-first-hour" });
    expect(nebula.status).toBe(201);
    const context = await signedInContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript((id) => localStorage.setItem("current_org_id", String(id)), nebula.body.id);
    const page = await context.newPage();
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: en.dashboard.first_build_title }).waitFor();
    await page.getByRole("link", { name: en.dashboard.first_build_action }).click();
    await page.waitForURL("**/dashboard/apps");
    await page.getByRole("dialog").getByLabel(en.upload.file_label).waitFor({ state: "attached" });
  });

  it("at the plan's project limit refuses a new project before sending the file, naming whom to ask", async () => {
    // Orbit holds three projects by now (Orbit, Some Tool, Comet): the free plan's limit.
    expect((await api(`/api/organization/usage/?org=${orbitOrgId}`)).body).toMatchObject({
      projects_count: 3,
      projects_limit: 3,
    });
    const context = await signedInContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript((id) => localStorage.setItem("current_org_id", String(id)), orbitOrgId);
    const page = await context.newPage();
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/applicationadd/")) uploads.push(request.url());
    });
    await page.goto("/dashboard/apps");
    await page.getByRole("button", { name: en.apps.add }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(en.upload.project_limit_note).waitFor();
    await dialog.getByLabel(en.upload.file_label).setInputFiles(path.join(fixtures, "android/bare.apk"));
    // No billing here: the message names whom to ask, and no byte of the file has left.
    await dialog
      .getByText(
        `${en.upload.project_limit_reached} Ask the administrator of this Tarmac instance (${OWNER}) to raise the limit.`,
      )
      .waitFor();
    expect(uploads).toEqual([]);
    expect(await dialog.getByText(en.COMPLETED).count()).toBe(0);
    expect(await dialog.getByText(/%$/).count()).toBe(0);
    await dialog.getByRole("link", { name: en.upload.see_plan }).click();
    await page.waitForURL("**/dashboard/organization/plan");
  });

  it("tells an iPhone plainly that an Android-only app is not for it, with the code to open it elsewhere", async () => {
    const link = (await api(`/api/distributions/?app=${orbitAppId}`)).body.results.find(
      (item: { access: string }) => item.access === "public",
    ) as { key: string } | undefined;
    const key =
      link?.key ?? (await postJson("/api/distributions/", { app: orbitAppId, access: "public" })).body.key;
    const iphone = await harness.newContext({ ...devices["iPhone 13"] });
    const page = await iphone.newPage();
    await page.goto(`/getapp/${key}`);
    const notice = en.install.not_for_device
      .replace("{{device}}", en.install.devices.iphone)
      .replace("{{platforms}}", en.platforms.android);
    await page.getByText(notice).waitFor();
    await page.getByRole("img", { name: en.install.qr_label }).waitFor();
    // The APK is still listed for whoever needs it, but not as the page's main action.
    const apk = page.getByRole("link", { name: en.install.download_apk });
    expect(await apk.getAttribute("data-size")).not.toBe("lg");
    await page.getByText(/requires Android \d+(\.\d+)? \(API \d+\) or later/).waitFor();
  });

  it("says before Add that a version already in the app cannot be added, and offers no Add", async () => {
    const context = await signedInContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(`/dashboard/apps/${orbitAppId}`);
    await page.getByRole("button", { name: en.apps.upload_version }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(en.upload.file_label).setInputFiles(path.join(fixtures, "android/modern.apk"));
    await dialog.getByText(en.COMPLETED).waitFor({ timeout: 30_000 });
    await dialog.getByText(/is already in this app, so it cannot be added again/).waitFor();
    expect(await dialog.getByRole("button", { name: en.upload.add, exact: true }).isDisabled()).toBe(true);
  });
});
