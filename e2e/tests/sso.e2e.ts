// An owner sets up OpenID Connect against a real provider (oidc-provider on loopback); then a
// colleague signs in through the organization's sign-in link, the provider's form, and lands in
// the dashboard with an account made on the way.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OidcPeer } from "../../apps/server/test/helpers/oidc-peer.ts";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { seriousAccessibilityProblems } from "../helpers/axe.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en } from "../helpers/shared-files.ts";

const OWNER = "olga.owner@sso-e2e.test";

let harness: Harness;
let peer: OidcPeer;
let dataDir: string;
let token: string;

const { api, postJson } = apiClient(
  () => harness.baseUrl,
  () => token,
);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-sso-"));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_EMAILS: OWNER,
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
  };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  peer = await OidcPeer.start({
    clientId: "tarmac-e2e",
    clientSecret: "e2e-secret",
    redirectUri: `${harness.baseUrl}/api/sso/oidc/callback/`,
    accounts: {
      dana: { email: "dana@sso-e2e.test", given_name: "Dana", family_name: "Scully", email_verified: true },
    },
  });
  await postJson("/api/organizations/", { title: "Single Sign", subdomain: "single-sign" });
});

afterAll(async () => {
  await harness?.close();
  await peer?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("single sign-on with OpenID Connect", () => {
  it("is set up in the organization's settings and signs a colleague in through the provider", async () => {
    const owner = await harness.signedInContext(token);
    const page = await owner.newPage();
    await page.goto("/dashboard/organization/sign-on");
    await page.getByTestId("sign-on-status").waitFor();
    expect(await page.getByTestId("redirect-uri").textContent()).toBe(
      `${harness.baseUrl}/api/sso/oidc/callback/`,
    );
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    const form = page.getByRole("form", { name: en.sign_on.oidc_title });
    await form.getByLabel(en.sign_on.issuer).fill(peer.issuer);
    await form.getByLabel(en.sign_on.client_id).fill("tarmac-e2e");
    await form.getByLabel(en.sign_on.client_secret).fill("e2e-secret");
    await form.getByLabel(en.sign_on.allowed_domains).fill("sso-e2e.test");
    await form.getByLabel(en.sign_on.allowed_domains).press("Enter");
    await form.getByRole("button", { name: en.sign_on.save }).click();
    await page.getByText(en.sign_on.saved).waitFor();
    await page.getByText(en.sign_on.status_on.replace("{{issuer}}", peer.issuer)).waitFor();
    await owner.close();

    // A colleague who never had an account signs in by the organization's name (the login page
    // offers the sign-in by address only for a domain the organization proved: consent.e2e.ts).
    const colleague = await harness.newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await colleague.newPage();
    await tab.goto("/login-custom-client");
    await tab.getByLabel(en.custom_login.organization).fill("single-sign");
    await tab.getByRole("button", { name: en.custom_login.submit }).click();
    // The provider's own login form, then its consent screen.
    await tab.waitForURL((url) => url.toString().startsWith(peer.issuer));
    await tab.locator("input[name=login]").fill("dana");
    await tab.locator("input[name=password]").fill("anything");
    await tab.locator("button[type=submit]").click();
    await tab.locator("input[name=prompt][value=consent]").waitFor({ state: "attached" });
    await tab.locator("button[type=submit]").click();
    await tab.waitForURL(`${harness.baseUrl}/dashboard`);
    await tab.getByRole("button", { name: en.dashboard.logout }).waitFor();
    const cookies = await colleague.cookies(harness.baseUrl);
    const session = cookies.find((cookie) => cookie.name === "tarmac_token")?.value as string;
    const profile = await fetch(`${harness.baseUrl}/api/profiles/`, {
      headers: { authorization: `Token ${session}` },
    });
    expect(JSON.stringify(await profile.json())).toContain("dana@sso-e2e.test");
    await colleague.close();
    expect((await api("/api/check_sso_by_name/single-sign/")).body).toMatchObject({
      sso: true,
      method: "oidc",
    });
  });
});
