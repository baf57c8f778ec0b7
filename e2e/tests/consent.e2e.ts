// Consent end to end: joining an organization is an invitation its person accepts, and an
// organization's sign-in opens an existing account only once its owner linked it from the mailed
// link, in a domain the organization proved by DNS (a DNS server and an OpenID provider on loopback).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DnsPeer } from "../../apps/server/test/helpers/dns-peer.ts";
import { OidcPeer } from "../../apps/server/test/helpers/oidc-peer.ts";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en } from "../helpers/shared-files.ts";

const OWNER = "olga.owner@consent-e2e.test";
const INVITEE = { email: "ivan@elsewhere-e2e.test", password: "Harbor-Quill-7315" };
const LINKER = { email: "pia@consent-e2e.test", password: "Meadow-Lark-2290" };
const ORGANIZATION = { title: "Consent Co", subdomain: "consent-co" };
const passwordLabel = new RegExp(`^${en.fields.password}\\b`);

let harness: Harness;
let peer: OidcPeer;
let dns: DnsPeer;
let dataDir: string;
let token: string;
let organizationId: number;

const { api, postJson, mailText } = apiClient(
  () => harness.baseUrl,
  () => token,
);

/** An activated account with a password, made as a person makes one (sign-up, then the mailed code). */
async function createAccount(person: { email: string; password: string }) {
  const registered = await fetch(`${harness.baseUrl}/api/user/register/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...person, first_name: "", last_name: "" }),
  });
  expect(registered.status).toBe(201);
  const code = /\/activate\/([\w-]+)/.exec(await mailText(person.email))?.[1];
  const activated = await fetch(`${harness.baseUrl}/api/user/activate/${code}/`, { method: "POST" });
  expect(activated.status).toBe(200);
}

/** The code of the newest mail to `to` that links an account; the mail goes out from a job. */
async function mailedLinkCode(to: string): Promise<string> {
  for (let tries = 0; tries < 100; tries += 1) {
    const code = /[?&]sso_link=([\w-]+)/.exec(await mailText(to))?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} with a link to link the account`);
}

async function logIn(page: Page, person: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel(en.fields.email).fill(person.email);
  await page.getByLabel(passwordLabel).fill(person.password);
  await page.getByRole("button", { name: en.login.submit }).click();
  await page.waitForURL("**/dashboard");
}

/**
 * At the provider: its login form (as `login`) and its consent screen, whichever it shows, until
 * it sends the browser back. A provider that remembers the person and the grant shows neither.
 */
async function answerProvider(page: Page, login: string) {
  const atProvider = (url: URL) => url.toString().startsWith(peer.issuer);
  for (let step = 0; step < 3; step += 1) {
    await page.waitForURL((url) => !atProvider(url) || url.pathname.startsWith("/interaction/"));
    if (!atProvider(new URL(page.url()))) return;
    const here = page.url();
    if ((await page.locator("input[name=prompt]").getAttribute("value")) === "login") {
      await page.locator("input[name=login]").fill(login);
      await page.locator("input[name=password]").fill("anything");
    }
    await page.locator("button[type=submit]").click();
    await page.waitForURL((url) => url.toString() !== here);
  }
  throw new Error(`still at the provider: ${page.url()}`);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-consent-"));
  dns = await DnsPeer.start();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_EMAILS: OWNER,
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
    DNS_SERVERS: dns.server,
  };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  peer = await OidcPeer.start({
    clientId: "tarmac-consent",
    clientSecret: "consent-secret",
    redirectUri: `${harness.baseUrl}/api/sso/oidc/callback/`,
    accounts: { pia: { email: LINKER.email, email_verified: true } },
  });
  const organization = await postJson("/api/organizations/", ORGANIZATION);
  organizationId = organization.body.id;
  await Promise.all([createAccount(INVITEE), createAccount(LINKER)]);
});

afterAll(async () => {
  await harness?.close();
  await peer?.close();
  await dns?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("consent", () => {
  it("invites an existing person, who joins by accepting the invitation", async () => {
    const owner = await harness.signedInContext(token);
    const staff = await owner.newPage();
    await staff.goto("/dashboard/organization/staff");
    await staff.getByRole("button", { name: en.staff.add }).click();
    const dialog = staff.getByRole("dialog", { name: en.staff.add_title });
    await dialog.getByLabel(en.fields.email).fill(INVITEE.email);
    await dialog.getByLabel(en.staff.role).selectOption({ label: en.roles.r2 });
    await dialog.getByRole("button", { name: en.staff.add_submit }).click();
    await staff.getByText(en["USER HAS BEEN CREATED SUCCESSFULLY"]).waitFor();
    const pending = staff.getByRole("table", {
      name: new RegExp(`^${en.staff.pending_title.split(" (")[0]}`),
    });
    await pending.getByRole("row").filter({ hasText: INVITEE.email }).waitFor();
    await owner.close();

    const person = await harness.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await person.newPage();
    await logIn(page, INVITEE);
    const prompt = page.getByTestId("invitations-prompt");
    await prompt
      .getByText(en.invitations.prompt_single.replace("{{organization}}", ORGANIZATION.title))
      .waitFor();
    await prompt.getByRole("link", { name: en.invitations.prompt_open }).click();
    await page.waitForURL("**/dashboard/invitations");
    await page
      .getByRole("button", {
        name: en.invitations.accept_to.replace("{{organization}}", ORGANIZATION.title),
      })
      .click();
    await page.getByText(en.invitations.empty).waitFor();
    const organizations = page.getByRole("list", { name: en.menu.organizations });
    await organizations.getByRole("button", { name: ORGANIZATION.title, exact: false }).waitFor();
    await person.close();
    const members = await api(`/api/usersinorgs/?org=${organizationId}`);
    expect(members.body.results.map((member: { email: string }) => member.email)).toContain(INVITEE.email);
  });

  it("links an existing account from the mailed link, in a domain proven by DNS, then signs it in", async () => {
    const saved = await api(`/api/orgs-oidc/${organizationId}/`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        issuer: peer.issuer,
        client_id: "tarmac-consent",
        client_secret: "consent-secret",
        allowed_domains: [],
        default_role: 2,
      }),
    });
    expect(saved.status).toBe(200);

    // The owner proves the domain on the sign-on page: the TXT record it names goes into DNS.
    const owner = await harness.signedInContext(token);
    const settings = await owner.newPage();
    await settings.goto("/dashboard/organization/sign-on");
    const domains = settings.locator("section").filter({
      has: settings.getByRole("heading", { name: en.sign_on.domains_title }),
    });
    await domains.getByRole("textbox", { name: en.sign_on.domain }).fill("consent-e2e.test");
    await domains.getByRole("button", { name: en.sign_on.add_domain }).click();
    const claim = domains.getByRole("listitem").filter({ hasText: "consent-e2e.test" });
    // allTextContents does not wait: the claim's TXT name and value must be on the page first.
    await claim.locator("code").nth(1).waitFor();
    const [name, value] = await claim.locator("code").allTextContents();
    dns.setTxt(name as string, [value as string]);
    await claim.getByRole("button", { name: en.sign_on.verify_now }).click();
    await claim.getByText(en.sign_on.domain_status.proven, { exact: true }).waitFor();
    await owner.close();

    // The account's owner starts at the login page, which now offers the organization's sign-in.
    const person = await harness.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await person.newPage();
    await page.goto("/login");
    await page.getByLabel(en.fields.email).fill(LINKER.email);
    await page.getByLabel(en.fields.email).blur();
    await page.getByTestId("sso-offer").click();
    await answerProvider(page, "pia");
    await page.waitForURL("**/login-custom-client?sso_error=link_sent");
    await page.getByText(en.custom_login.errors.link_sent).waitFor();

    const code = await mailedLinkCode(LINKER.email);
    await page.goto(`/login-custom-client?sso_link=${code}`);
    await page.getByRole("button", { name: en.custom_login.link_submit }).click();
    await page
      .getByRole("link", {
        name: en.custom_login.link_sign_in.replace("{{organization}}", ORGANIZATION.title),
      })
      .click();
    await answerProvider(page, "pia");
    await page.waitForURL(`${harness.baseUrl}/dashboard`);
    await page.getByRole("button", { name: en.dashboard.logout }).waitFor();
    await person.close();
  });
});
