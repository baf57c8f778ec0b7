// An admin sets up a webhook on the app page's Integrations tab, keeps the secret shown once,
// sends a test event, and sees its delivery in the log; the endpoint checks the signature.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { WebhookReceiver } from "../../apps/server/test/helpers/webhook-receiver.ts";
import { apiClient } from "../helpers/api-client.ts";
import { seriousAccessibilityProblems } from "../helpers/axe.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

const OWNER = "wes.hooks@hooks.test";

let harness: Harness;
let receiver: WebhookReceiver;
let dataDir: string;
let token: string;
let appId: number;

const { postJson, uploadNewApp } = apiClient(
  () => harness.baseUrl,
  () => token,
);

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-hooks-"));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_EMAILS: OWNER,
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
  };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  const organization = await postJson("/api/organizations/", { title: "Hooked", subdomain: "hooked-e2e" });
  appId = (await uploadNewApp(organization.body.id, path.join(fixtures, "android/modern.apk"), "Hooked")).body
    .id;
});

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the Integrations tab", () => {
  it("adds a webhook, shows its secret once, and logs the test event the endpoint accepted", async () => {
    const url = receiver.script("/ci", [{ status: 200, body: "thanks" }]);
    const context = await harness.signedInContext(token);
    const page = await context.newPage();
    await page.goto(`/dashboard/apps/${appId}`);
    await page.getByRole("tab", { name: en.integrations.tab }).click();
    await page.getByText(en.integrations.no_webhooks).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByRole("button", { name: en.integrations.add_webhook }).click();
    const dialog = page.getByRole("dialog", { name: en.integrations.add_webhook });
    await dialog.getByLabel(en.integrations.url).fill(url);
    await dialog.getByLabel(en.integrations.event_names.build_deleted).check();
    await dialog.getByRole("button", { name: en.common.save }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: en.integrations.secret_done }).click();

    const card = page.getByTestId("webhook-card");
    await card.getByText(url).waitFor();
    await card.getByRole("button", { name: en.integrations.send_test }).click();
    await page.getByText(en.integrations.test_sent.replace("{{status}}", "200")).waitFor();
    await card.getByRole("button", { name: en.integrations.show_log }).click();
    const row = card.getByTestId("delivery-row").first();
    await row.getByText(en.integrations.statuses.succeeded).waitFor();
    expect(await row.textContent()).toContain("webhook.test");
    expect(await row.textContent()).toContain("thanks");

    const [request] = receiver.at("/ci");
    const verified = new Webhook(secret).verify(request?.body ?? "", {
      "webhook-id": String(request?.headers["webhook-id"]),
      "webhook-timestamp": String(request?.headers["webhook-timestamp"]),
      "webhook-signature": String(request?.headers["webhook-signature"]),
    }) as { type: string; data: { app: { id: number } } };
    expect(verified).toMatchObject({ type: "webhook.test", data: { app: { id: appId } } });
    await context.close();
  });
});
