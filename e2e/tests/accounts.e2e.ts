// Accounts end to end: sign-up, activation, organization, staff invitations, the mobile-only rule
// and two-factor login, all through the real web UI. Mail is read from the dev outbox.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generate } from "otplib";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en } from "../helpers/shared-files.ts";

const ROOT_EMAIL = "root@tarmac.test";
const OWNER = { email: "olivia.owner@example.test", password: "Lantern-Orbit-1947", first: "Olivia" };
const TESTER = { email: "tom.tester@example.test", password: "Copper-Meadow-2681", first: "Tom" };
const ADMIN = { email: "ada.admin@example.test", password: "Willow-Harbor-5530", first: "Ada" };

// A required field's label ends in an asterisk; the visibility toggle's label also says "password".
const passwordLabel = new RegExp(`^${en.fields.password}\\b`);

let harness: Harness;
let dataDir: string;
let rootToken: string;
let owner: Page;

beforeAll(async () => {
  // The instance admin key exists before the server starts: the embedded database has one owner.
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-accounts-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_EMAILS: ROOT_EMAIL };
  rootToken = issueAdminToken(env, ROOT_EMAIL);
  harness = await startHarness(env);
  owner = await (await harness.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
});

afterAll(async () => {
  await harness?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Waits for a mail to the address whose text holds a link to `pathPrefix`, and returns that path. */
async function readMailLink(to: string, pathPrefix: string): Promise<string> {
  const pattern = new RegExp(`${harness.baseUrl}(${pathPrefix}[^\\s"<]+)`);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${harness.baseUrl}/api/admin/outbox/?to=${encodeURIComponent(to)}`, {
      headers: { Authorization: `Token ${rootToken}` },
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { results: { text: string }[] };
    for (const mail of page.results) {
      const match = pattern.exec(mail.text);
      if (match?.[1]) return match[1];
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} with a ${pathPrefix} link`);
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel(en.fields.email).fill(email);
  await page.getByLabel(passwordLabel).fill(password);
  await page.getByRole("button", { name: en.login.submit }).click();
}

async function openMenuLink(page: Page, label: string): Promise<void> {
  const link = page.getByRole("link", { name: label, exact: true });
  if (!(await link.isVisible())) {
    const section = label === en.menu.profile ? en.menu.account : en.menu.organization;
    await page.getByRole("button", { name: section, exact: true }).click();
  }
  await link.click();
}

/** Accepts an invitation in a fresh browser context and logs in there. */
async function acceptInvitation(person: typeof TESTER, last: string): Promise<Page> {
  const link = await readMailLink(person.email, "/activate/");
  const page = await (await harness.newContext()).newPage();
  await page.goto(link);
  await page.getByRole("heading", { name: en.activate.invitation_title }).waitFor();
  await page.getByLabel(en.fields.first_name).fill(person.first);
  await page.getByLabel(en.fields.last_name).fill(last);
  await page.getByLabel(passwordLabel).fill(person.password);
  await page.getByRole("button", { name: en.activate.accept_invitation }).click();
  await page.getByText(en.activate.done).waitFor();
  await logIn(page, person.email, person.password);
  return page;
}

async function addMember(email: string, roleLabel: string): Promise<void> {
  await owner.getByRole("button", { name: en.staff.add }).click();
  const dialog = owner.getByRole("dialog", { name: en.staff.add_title });
  await dialog.getByLabel(en.fields.email).fill(email);
  await dialog.getByLabel(en.staff.role).selectOption({ label: roleLabel });
  await dialog.getByRole("button", { name: en.staff.add_submit }).click();
  await dialog.waitFor({ state: "hidden" });
}

function staffRow(scope: Page | Locator, email: string) {
  return scope.getByRole("row").filter({ hasText: email });
}

/** The staff page's table of invitations not answered yet. */
function pendingInvitations(page: Page) {
  return page.getByRole("table", { name: new RegExp(`^${en.staff.pending_title.split(" (")[0]}`) });
}

describe("accounts in the browser", () => {
  it("signs up, activates from the e-mailed link and logs in", async () => {
    await owner.goto("/signup");
    await owner.getByLabel(en.fields.first_name).fill(OWNER.first);
    await owner.getByLabel(en.fields.last_name).fill("Owner");
    await owner.getByLabel(en.fields.email).fill(OWNER.email);
    await owner.getByLabel(passwordLabel).fill(OWNER.password);
    await owner.getByRole("button", { name: en.signup.submit }).click();
    await owner.getByRole("heading", { name: en.signup.check_title }).waitFor();

    const link = await readMailLink(OWNER.email, "/activate/");
    await owner.goto(link);
    await owner.getByText(en.activate.description_for.replace("{{email}}", OWNER.email)).waitFor();
    await owner.getByRole("button", { name: en.activate.submit }).click();
    await owner.getByText(en.activate.done).waitFor();

    await logIn(owner, OWNER.email, OWNER.password);
    await owner.waitForURL("**/dashboard");
    await owner.getByText(en.dashboard.hello.replace("{{name}}", OWNER.first)).waitFor();
    expect(await owner.getByText(en.dashboard.inactive).count()).toBe(0);
  });

  it("creates an organization and invites a tester and an admin from the staff page", async () => {
    await owner.getByRole("heading", { name: en.org.first_run_title }).waitFor();
    await owner.getByLabel(en.org.title_label).fill("Runway Labs");
    expect(await owner.getByLabel(en.org.subdomain_label).inputValue()).toBe("runway-labs");
    await owner.getByRole("button", { name: en.org.create_submit }).click();
    await owner.getByRole("heading", { name: "Runway Labs" }).waitFor();

    await openMenuLink(owner, en.menu.staff);
    await owner.waitForURL("**/dashboard/organization/staff");
    await staffRow(owner, OWNER.email).getByText(en.roles.r1, { exact: true }).waitFor();

    await addMember(TESTER.email, en.roles.r5);
    // Invited people are not members until they accept: they wait among the invitations.
    await staffRow(pendingInvitations(owner), TESTER.email).getByText(en.roles.r5, { exact: true }).waitFor();

    await addMember(ADMIN.email, en.roles.r2);
    await staffRow(owner, ADMIN.email).getByText(en.roles.r2, { exact: true }).waitFor();
  });

  it("signs an invited tester in to Install apps, the mobile area of the web app", async () => {
    const page = await acceptInvitation(TESTER, "Tester");
    await page.waitForURL("**/dashboard/m");
    await page.getByRole("heading", { name: en.mobile.title }).waitFor();
    await page.context().close();
  });

  it("lets an invited admin in, who sees the organization", async () => {
    const page = await acceptInvitation(ADMIN, "Admin");
    await page.waitForURL("**/dashboard");
    await page.getByRole("heading", { name: "Runway Labs" }).waitFor();
    expect(await page.getByText(en.roles.r2, { exact: true }).first().isVisible()).toBe(true);
    await page.context().close();
  });

  it("shows the activated members in the staff list", async () => {
    await owner.reload();
    await staffRow(owner, TESTER.email).getByText(`${TESTER.first} Tester`, { exact: true }).waitFor();
    await staffRow(owner, ADMIN.email).getByText(`${ADMIN.first} Admin`, { exact: true }).waitFor();
    expect(await pendingInvitations(owner).count()).toBe(0);
    await owner.getByText(en.staff.count.replace("{{count}}", "3")).waitFor();
    expect(await staffRow(owner, TESTER.email).getByText(en.roles.r5, { exact: true }).isVisible()).toBe(
      true,
    );
  });

  it("turns on two-factor authentication and then asks for a code at login", async () => {
    await openMenuLink(owner, en.menu.profile);
    await owner.waitForURL("**/dashboard/profile");
    await owner.getByRole("button", { name: en.twofa.enable }).click();
    const secret = (await owner.getByTestId("twofa-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await owner.getByLabel(en.twofa.code).fill(await generate({ secret }));
    await owner.getByRole("button", { name: en.twofa.confirm }).click();
    const codes = owner.getByRole("list", { name: en.twofa.codes_label }).getByRole("listitem");
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await owner.getByRole("button", { name: en.twofa.codes_saved }).click();
    await owner.getByText(en.twofa.on, { exact: true }).waitFor();

    await owner.getByRole("button", { name: en.dashboard.logout }).click();
    await owner.waitForURL("**/login");
    await logIn(owner, OWNER.email, OWNER.password);
    await owner.getByLabel(en.login.otp_label).waitFor();
    // The code of the setup step is spent; the next step's code is inside the accepted drift.
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await owner.getByLabel(en.login.otp_label).fill(code);
    await owner.getByRole("button", { name: en.login.otp_submit }).click();
    await owner.waitForURL("**/dashboard");
    await owner.getByRole("heading", { name: "Runway Labs" }).waitFor();
  });
});
