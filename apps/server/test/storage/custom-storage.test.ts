import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitKey } from "../../src/platform/storage/location-keys.ts";
import {
  dmg,
  fixture,
  fixturePath,
  multipart,
  preload,
  uploadNewApp,
  uploadVersion,
} from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { type FakeGcs, startFakeGcs } from "../helpers/fake-gcs.ts";
import { addMember, createOrganization, waitFor } from "../helpers/org-factories.ts";
import { recordingLogger } from "../helpers/quiet-logger.ts";
import { type S3Peer, s3PeerCredentials, startS3Peer } from "../helpers/s3-peer.ts";
import { mailOutbox, storageLocations, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let gcs: FakeGcs;
const gcsKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
const gcsClient = "tarmac@tarmac-test.iam.gserviceaccount.com";
const dmgBytes = readFileSync(fixturePath("apple/dmg/Tarmac-1.2.3.dmg"));
let peer: S3Peer;
const logged = recordingLogger();

beforeAll(async () => {
  peer = await startS3Peer(["org-bucket", "other-bucket", "doomed-bucket", "deleted-org"]);
  gcs = await startFakeGcs({ bucket: "org-gcs", clientEmail: gcsClient, privateKeyPem: gcsKey });
  t = await createTestApp(
    { ALLOW_PRIVATE_NETWORK_TARGETS: "true", GCS_API_ENDPOINT: gcs.url },
    undefined,
    logged.logger,
  );
  await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await t?.close();
  await peer?.stop();
  await gcs?.stop();
});

const s3Settings = (bucket = "org-bucket", extra: Record<string, unknown> = {}) => ({
  endpoint: peer.endpoint,
  region: "us-east-1",
  bucket,
  prefix: "tarmac/builds",
  path_style: true,
  access_key_id: s3PeerCredentials.accessKeyId,
  secret_access_key: s3PeerCredentials.secretAccessKey,
  ...extra,
});

async function putCustom(token: string, organizationId: number, body: Record<string, unknown>) {
  return t.app.inject({
    method: "PUT",
    url: `/api/orgs-custom-storage/${organizationId}/`,
    headers: authHeader(token),
    payload: body,
  });
}

async function versionRow(id: number) {
  const [row] = await t.database.db.select().from(versions).where(eq(versions.id, id));
  if (!row) throw new Error("no version");
  return row;
}

/** Downloads a version's file the way a member does: the API's redirect, then the signed link. */
async function download(token: string, versionId: number): Promise<Buffer> {
  const redirect = await t.app.inject({
    url: `/api/versions/${versionId}/download/`,
    headers: authHeader(token),
  });
  expect(redirect.statusCode).toBe(302);
  let location = redirect.headers.location as string;
  for (let hop = 0; hop < 3; hop++) {
    if (!location.startsWith("http://tarmac.test")) break;
    const link = new URL(location);
    const served = await t.app.inject({ url: `${link.pathname}${link.search}` });
    if (served.statusCode !== 302) {
      expect(served.statusCode).toBe(200);
      return served.rawPayload;
    }
    location = served.headers.location as string;
  }
  // Straight from the bucket: a presigned URL, fetched without any cookie or header.
  const direct = await fetch(location);
  expect(direct.status).toBe(200);
  return Buffer.from(await direct.arrayBuffer());
}

describe("an organization's own S3-compatible bucket", () => {
  it("is tested before it is saved, keeps its secret sealed and never sends it back", async () => {
    const { organization, owner } = await createOrganization(t);
    const empty = await t.app.inject({
      url: `/api/orgs-custom-storage/${organization.id}/`,
      headers: authHeader(owner.token),
    });
    expect(empty.json()).toMatchObject({ enabled: false, configured: false, secret_access_key_set: false });

    const unknownKey = await putCustom(
      owner.token,
      organization.id,
      s3Settings("org-bucket", { access_key_id: "NOBODY" }),
    );
    expect(unknownKey.statusCode).toBe(400);
    expect(Object.keys(unknownKey.json())).toEqual(["access_key_id"]);
    const noBucket = await putCustom(owner.token, organization.id, s3Settings("missing-bucket"));
    expect(noBucket.statusCode).toBe(400);
    expect(noBucket.json()).toEqual({ bucket: ["This bucket does not exist."] });
    const unreachable = await putCustom(
      owner.token,
      organization.id,
      s3Settings("org-bucket", { endpoint: "http://127.0.0.1:9" }),
    );
    expect(unreachable.statusCode).toBe(400);
    expect(unreachable.json()).toEqual({
      endpoint: [
        "The storage service could not be reached. The connection was refused: nothing listens at this address and port.",
      ],
    });
    // A web server that is not S3 (a site, a wrong port): said so, not "XML parse error".
    const website = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!doctype html><html><body><h1>Welcome</h1></body></html>");
    });
    website.listen(0, "127.0.0.1");
    await once(website, "listening");
    try {
      const notS3 = await putCustom(
        owner.token,
        organization.id,
        s3Settings("org-bucket", { endpoint: `http://127.0.0.1:${(website.address() as AddressInfo).port}` }),
      );
      expect(notS3.json()).toEqual({
        endpoint: [
          "This address did not answer as S3-compatible storage (it sent a web page, not S3's XML). Check the endpoint: it is the storage service's API address, without the bucket.",
        ],
      });
    } finally {
      website.close();
    }
    const badUrl = await putCustom(
      owner.token,
      organization.id,
      s3Settings("org-bucket", { endpoint: "ftp://x" }),
    );
    expect(badUrl.json()).toEqual({ endpoint: ["Use an https:// address."] });

    const saved = await putCustom(owner.token, organization.id, s3Settings());
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      enabled: true,
      configured: true,
      bucket: "org-bucket",
      prefix: "tarmac/builds/",
      path_style: true,
      access_key_id: "S3RVER",
      secret_access_key_set: true,
    });
    expect(Object.keys(saved.json()).filter((field) => field.startsWith("secret"))).toEqual([
      "secret_access_key_set",
    ]);
    const [row] = await t.database.db
      .select()
      .from(storageLocations)
      .where(eq(storageLocations.organizationId, organization.id));
    expect(row?.sealedSecret).toMatch(/^v1\./);
    expect(row?.sealedSecret).not.toContain("S3RVER");
    expect(JSON.stringify(row?.settings)).not.toContain('"secretAccessKey"');

    // Saving again without the secret keeps the one saved before.
    const { secret_access_key: _secret, ...withoutSecret } = s3Settings();
    const again = await putCustom(owner.token, organization.id, withoutSecret);
    expect(again.statusCode).toBe(200);
  });

  it("is for owners and admins only, and per organization", async () => {
    const { organization, owner } = await createOrganization(t);
    const tester = await addMember(t, organization.id, 5);
    const admin = await addMember(t, organization.id, 2);
    const other = await createOrganization(t);
    for (const token of [tester.token]) {
      expect((await putCustom(token, organization.id, s3Settings())).statusCode).toBe(403);
      const read = await t.app.inject({
        url: `/api/orgs-custom-storage/${organization.id}/`,
        headers: authHeader(token),
      });
      expect(read.statusCode).toBe(403);
    }
    expect((await putCustom(other.owner.token, organization.id, s3Settings())).statusCode).toBe(404);
    expect((await putCustom(admin.token, organization.id, s3Settings())).statusCode).toBe(200);
    const disable = await t.app.inject({
      method: "PUT",
      url: `/api/orgs-cloud-storage-disable/${organization.id}/`,
      headers: authHeader(tester.token),
    });
    expect(disable.statusCode).toBe(403);
    expect(owner.token).toBeTruthy();
  });

  it("takes new builds, serves them, keeps old ones readable, and moves them on request", async () => {
    const { organization, owner } = await createOrganization(t);
    const before = await uploadNewApp(t, owner.token, organization.id, dmg("1.0.0"));
    const [oldVersion] = await t.database.db
      .select()
      .from(versions)
      .where(eq(versions.applicationId, before.id));
    if (!oldVersion) throw new Error("no version");
    expect(splitKey(oldVersion.fileKey).location).toBeNull();

    expect((await putCustom(owner.token, organization.id, s3Settings())).statusCode).toBe(200);
    const added = await uploadVersion(t, owner.token, before, dmg("1.0.1"));
    expect(added.statusCode, `${added.body}\n${logged.errors()}`).toBe(201);
    const [newVersion] = await t.database.db
      .select()
      .from(versions)
      .where(eq(versions.applicationId, before.id))
      .orderBy(desc(versions.id))
      .limit(1);
    if (!newVersion) throw new Error("no version");
    const placed = splitKey(newVersion.fileKey);
    expect(placed.location).not.toBeNull();
    // The object is in the bucket, under the prefix, byte for byte.
    const inBucket = path.join(
      peer.directory,
      "org-bucket",
      "tarmac",
      "builds",
      `${placed.key}._S3rver_object`,
    );
    expect(readFileSync(inBucket).equals(dmgBytes)).toBe(true);

    expect((await download(owner.token, newVersion.id)).equals(dmgBytes)).toBe(true);
    expect((await download(owner.token, oldVersion.id)).equals(dmgBytes)).toBe(true);

    const overview = await t.app.inject({
      url: `/api/orgs-storage/${organization.id}/`,
      headers: authHeader(owner.token),
    });
    expect(overview.json()).toMatchObject({ kind: "s3", move: null });
    expect(overview.json().files_elsewhere).toBeGreaterThanOrEqual(1);

    const started = await t.app.inject({
      method: "POST",
      url: `/api/orgs-storage/${organization.id}/move/`,
      headers: authHeader(owner.token),
    });
    expect(started.statusCode).toBe(202);
    type Overview = {
      files_elsewhere: number;
      move: { state: string; moved_files: number; total_files: number };
    };
    const done = await waitFor<Overview>(async () => {
      const state = await t.app.inject({
        url: `/api/orgs-storage/${organization.id}/`,
        headers: authHeader(owner.token),
      });
      const move = state.json().move;
      return move?.state === "done" || move?.state === "failed" ? state.json() : undefined;
    }, 30_000);
    expect(done.move).toMatchObject({ state: "done", error: "" });
    expect(done.move.moved_files).toBe(done.move.total_files);
    expect(done.files_elsewhere).toBe(0);
    const moved = await versionRow(oldVersion.id);
    expect(splitKey(moved.fileKey).location).toBe(placed.location);
    expect((await download(owner.token, oldVersion.id)).equals(dmgBytes)).toBe(true);
    // The old copy is gone from the instance's storage.
    expect(await t.platform.storage.stat(oldVersion.fileKey)).toBeNull();

    // Back to the instance's storage: files in the bucket stay readable.
    const disabled = await t.app.inject({
      method: "PUT",
      url: `/api/orgs-cloud-storage-disable/${organization.id}/`,
      headers: authHeader(owner.token),
    });
    expect(disabled.json()).toEqual({ kind: "instance" });
    expect((await download(owner.token, newVersion.id)).equals(dmgBytes)).toBe(true);
  });

  it("answers error 10 when the bucket refuses a write, stores nothing, and mails the owner once", async () => {
    const { organization, owner } = await createOrganization(t);
    expect((await putCustom(owner.token, organization.id, s3Settings("doomed-bucket"))).statusCode).toBe(200);
    // The bucket disappears behind Tarmac's back.
    rmSync(path.join(peer.directory, "doomed-bucket"), { recursive: true, force: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await preload(
        t,
        owner.token,
        { organization: organization.id },
        fixture("android/bare.apk"),
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        error_code: 10,
        detail: "The organization's custom storage could not be written to. Check its settings.",
      });
    }
    const usage = await t.app.inject({
      url: `/api/organization/usage/?org=${organization.id}`,
      headers: authHeader(owner.token),
    });
    expect(usage.json()).toMatchObject({ pending_uploads: 0 });
    const [location] = await t.database.db
      .select()
      .from(storageLocations)
      .where(eq(storageLocations.organizationId, organization.id));
    expect(location?.refusalNotifiedAt).toBeInstanceOf(Date);
    const mails = await waitFor(async () => {
      const rows = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, owner.user.email));
      return rows.length > 0 ? rows : undefined;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain("custom storage");
  });

  it("sweeps objects nothing refers to from the organization's bucket, and keeps the builds", async () => {
    const { organization, owner } = await createOrganization(t);
    expect((await putCustom(owner.token, organization.id, s3Settings("other-bucket"))).statusCode).toBe(200);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("4.0.0"));
    const [version] = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
    if (!version) throw new Error("no version");
    const location = splitKey(version.fileKey).location as number;
    const orphan = await t.platform.storage
      .placingIn(location)
      .put(`orgs/${organization.id}/builds/left-by-a-crash`, Readable.from([Buffer.from("orphan")]));
    const later = new Date(Date.now() + 2 * 3600_000);
    const swept = await t.services.sweeper.sweep(later);
    expect(swept.deletedObjects).toBeGreaterThanOrEqual(1);
    expect(await t.platform.storage.stat(orphan.key)).toBeNull();
    expect(await t.platform.storage.stat(version.fileKey)).not.toBeNull();
  });

  it("deletes the organization's files in its bucket when the organization is deleted", async () => {
    const { organization, owner } = await createOrganization(t);
    expect((await putCustom(owner.token, organization.id, s3Settings("deleted-org"))).statusCode).toBe(200);
    await uploadNewApp(t, owner.token, organization.id, dmg("2.0.0"));
    const inBucket = () =>
      readdirSync(path.join(peer.directory, "deleted-org"), { recursive: true, encoding: "utf8" }).filter(
        (name) => name.endsWith("._S3rver_object"),
      );
    expect(inBucket().length).toBeGreaterThan(0);
    await t
      .job("organization.delete")
      .handler({ organizationId: organization.id }, { jobId: "x", retryCount: 0 });
    expect(inBucket()).toEqual([]);
  });
});

describe("an organization's own Google Cloud Storage bucket", () => {
  const keyFile = (extra: Record<string, unknown> = {}) => ({
    name: "key.json",
    field: "gcs_credentials",
    content: Buffer.from(
      JSON.stringify({
        type: "service_account",
        project_id: "tarmac-test",
        private_key_id: "k1",
        private_key: gcsKey,
        client_email: gcsClient,
        token_uri: `${gcs.url}/token`,
        ...extra,
      }),
    ),
  });
  const putGcs = (
    token: string,
    organizationId: number,
    fields: Record<string, string>,
    file?: ReturnType<typeof keyFile>,
  ) => {
    const body = multipart(fields, file);
    return t.app.inject({
      method: "PUT",
      url: `/api/orgs-google-cloud-storage/${organizationId}/`,
      headers: { ...authHeader(token), ...body.headers },
      payload: body.payload,
    });
  };

  it("takes the service account key file, tests the bucket, and serves builds from it", async () => {
    const { organization, owner } = await createOrganization(t);
    const notAKey = await putGcs(
      owner.token,
      organization.id,
      { bucket: "org-gcs" },
      { ...keyFile(), content: Buffer.from("{}") },
    );
    expect(notAKey.json()).toEqual({
      gcs_credentials: ["This is not a service account key (type must be service_account)."],
    });
    const noFile = await putGcs(owner.token, organization.id, { bucket: "org-gcs" });
    expect(noFile.json()).toEqual({ gcs_credentials: ["No file was submitted."] });
    const wrongBucket = await putGcs(owner.token, organization.id, { bucket: "no-such-bucket" }, keyFile());
    expect(wrongBucket.json()).toEqual({ bucket: ["This bucket does not exist."] });
    const saved = await putGcs(
      owner.token,
      organization.id,
      { bucket: "org-gcs", prefix: "builds" },
      keyFile(),
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      enabled: true,
      bucket: "org-gcs",
      prefix: "builds/",
      client_email: gcsClient,
      project_id: "tarmac-test",
      gcs_credentials_set: true,
    });
    expect(saved.body).not.toContain("PRIVATE KEY");
    const custom = await t.app.inject({
      url: `/api/orgs-custom-storage/${organization.id}/`,
      headers: authHeader(owner.token),
    });
    expect(custom.json()).toMatchObject({ enabled: false });

    const app = await uploadNewApp(t, owner.token, organization.id, dmg("3.0.0"));
    const [version] = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
    if (!version) throw new Error("no version");
    expect(gcs.objectNames()).toContain(`builds/${splitKey(version.fileKey).key}`);
    expect((await download(owner.token, version.id)).equals(dmgBytes)).toBe(true);
  });
});
