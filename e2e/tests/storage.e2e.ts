// An owner moves the organization's builds into its own S3-compatible bucket from the Storage
// page: the bucket test's error, then success, then "move existing builds" to its end.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3Peer, s3PeerCredentials, startS3Peer } from "../../apps/server/test/helpers/s3-peer.ts";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { apiClient } from "../helpers/api-client.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

const OWNER = "sam.storage@storage.test";

let harness: Harness;
let peer: S3Peer;
let dataDir: string;
let token: string;
let organizationId: number;

const { api, postJson, uploadNewApp } = apiClient(
  () => harness.baseUrl,
  () => token,
);

beforeAll(async () => {
  peer = await startS3Peer(["team-builds"]);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-storage-"));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_EMAILS: OWNER,
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
  };
  token = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  const organization = await postJson("/api/organizations/", { title: "Stored", subdomain: "stored-e2e" });
  organizationId = organization.body.id;
  await uploadNewApp(organizationId, path.join(fixtures, "android/modern.apk"), "Stored");
});

afterAll(async () => {
  await harness?.close();
  await peer?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the Storage page", () => {
  it("tests a bucket, switches new files to it, and moves the existing builds there", async () => {
    const context = await harness.signedInContext(token);
    const page = await context.newPage();
    await page.goto("/dashboard/organization/storage");
    await page.getByTestId("storage-status").waitFor();
    expect(await page.getByTestId("storage-status").textContent()).toBe(en.storage.status_instance);

    await page.getByText(en.storage.tab_s3, { exact: true }).click();
    const form = page.getByRole("form", { name: en.storage.tab_s3 });
    await form.getByLabel(en.storage.endpoint).fill(peer.endpoint);
    await form.getByLabel(en.storage.bucket, { exact: false }).first().fill("no-such-bucket");
    await form.getByLabel(en.storage.path_style).check();
    await form.getByLabel(en.storage.access_key_id, { exact: false }).fill(s3PeerCredentials.accessKeyId);
    await form
      .getByLabel(en.storage.secret_access_key, { exact: false })
      .fill(s3PeerCredentials.secretAccessKey);
    await form.getByRole("button", { name: en.storage.save_and_use }).click();
    await form.getByText("This bucket does not exist.").waitFor();

    await form.getByLabel(en.storage.bucket, { exact: false }).first().fill("team-builds");
    await form.getByRole("button", { name: en.storage.save_and_use }).click();
    await page.getByText(en.storage.saved).waitFor();
    await page.getByText(en.storage.status_s3.replace("{{bucket}}", "team-builds")).waitFor();

    await page.getByRole("button", { name: en.storage.move_start }).click();
    await page.getByText(en.storage.move_done_other.replace("{{count}}", "2")).waitFor({ timeout: 30_000 });
    const overview = await api(`/api/orgs-storage/${organizationId}/`);
    expect(overview.body).toMatchObject({ kind: "s3", files_elsewhere: 0, move: { state: "done" } });
    await context.close();
  });
});
