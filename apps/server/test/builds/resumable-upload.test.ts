import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { uploadErrorDetails } from "@tarmac/contracts";
import { eq } from "drizzle-orm";
import { Upload } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cuttingProxy } from "../helpers/cutting-proxy.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { type S3Peer, s3StorageEnv, startS3Peer } from "../helpers/s3-peer.ts";
import { tusUploads, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { confirm, dmg, fixturePath, multipart, preload, setLimits, setUsage } from "./upload-helpers.ts";

const partBytes = 64 * 1024;
const image = readFileSync(fixturePath("apple/dmg/Tarmac-1.2.3.dmg"));
const tus = { "tus-resumable": "1.0.0" };
const tusBytes = { ...tus, "content-type": "application/offset+octet-stream" };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_RESUMABLE_PART_BYTES: String(partBytes) });
});
afterAll(async () => {
  await t.close();
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function tusMetadata(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(String(value)).toString("base64")}`)
    .join(",");
}

function createUpload(
  app: TestApp,
  token: string,
  metadata: Record<string, string | number>,
  options: { length?: number; body?: Buffer } = {},
) {
  return app.app.inject({
    method: "POST",
    url: "/api/uploads/",
    headers: {
      ...(options.body ? tusBytes : tus),
      ...authHeader(token),
      "upload-length": String(options.length ?? image.length),
      "upload-metadata": tusMetadata(metadata),
    },
    ...(options.body ? { payload: options.body } : {}),
  });
}

/** Creates an upload of the disk image and answers its URL. */
async function started(token: string, organization: number, version = "1.2.3", app = t) {
  const created = await createUpload(app, token, { filename: `Tarmac-${version}.dmg`, organization });
  expect(created.statusCode, created.body).toBe(201);
  return created.headers.location as string;
}

function patch(token: string, url: string, offset: number, payload: Buffer | Readable, app = t) {
  return app.app.inject({
    method: "PATCH",
    url,
    headers: { ...tusBytes, ...authHeader(token), "upload-offset": String(offset) },
    payload,
  });
}

function head(token: string, url: string, app = t) {
  return app.app.inject({ method: "HEAD", url, headers: { ...tus, ...authHeader(token) } });
}

/**
 * HEAD once the upload reached `offset`. A request cut off may still be storing its last whole
 * part when the client has already gone, so the offset can move a moment after the cut (a
 * client resuming earlier gets 409 and asks again).
 */
function settledAt(app: TestApp, token: string, url: string, offset: number) {
  return waitFor(async () => {
    const status = await head(token, url, app);
    return status.headers["upload-offset"] === String(offset) ? status : undefined;
  }, 5000);
}

/** A request body that delivers `bytes` and then breaks off, as a dropped connection does. */
function cutAfter(bytes: Buffer): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes.length) {
        this.destroy(new Error("connection reset"));
        return;
      }
      const chunk = bytes.subarray(sent, sent + 16 * 1024);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** A PATCH whose connection drops after `bytes`: the client hears nothing back. */
async function cutPatch(token: string, url: string, offset: number, bytes: Buffer, app = t) {
  await expect(patch(token, url, offset, cutAfter(bytes), app)).rejects.toThrow("connection reset");
}

const idOf = (url: string) => url.split("/").filter(Boolean).pop() as string;

function finishByPreload(app: TestApp, token: string, fields: Record<string, string | number>) {
  const body = multipart(fields);
  return app.app.inject({
    method: "POST",
    url: "/api/applicationadd/?preload=1",
    payload: body.payload,
    headers: { ...body.headers, ...authHeader(token) },
  });
}

function ciUpload(
  appKey: string,
  apiKey: string,
  fields: Record<string, string>,
  file?: ReturnType<typeof dmg>,
) {
  const body = multipart({}, file, fields);
  return t.app.inject({
    method: "PUT",
    url: `/api/app_upload/${appKey}/${apiKey}/`,
    payload: body.payload,
    headers: body.headers,
  });
}

/** Files left under the organization's resumable uploads. */
function storedParts(organizationId: number): string[] {
  const root = path.join(t.config.STORAGE_LOCAL_DIR, "orgs", String(organizationId), "uploads");
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** The SHA-256 of what the version's download link delivers. */
async function downloadedSha(app: TestApp, token: string, appId: number): Promise<string> {
  const [version] = await app.database.db.select().from(versions).where(eq(versions.applicationId, appId));
  if (!version) throw new Error("no version");
  const redirect = await app.app.inject({
    url: `/api/versions/${version.id}/download/`,
    headers: authHeader(token),
  });
  const link = new URL(redirect.headers.location as string);
  const file = await app.app.inject({ url: `${link.pathname}${link.search}` });
  expect(file.statusCode).toBe(200);
  return sha256(file.rawPayload);
}

/** Preloads with `upload_id`, confirms as a new app, and answers the app's id. */
async function finishAsNewApp(app: TestApp, token: string, organization: number, uploadUrl: string) {
  const loaded = await finishByPreload(app, token, { organization, upload_id: idOf(uploadUrl) });
  expect(loaded.statusCode, loaded.body).toBe(200);
  const created = await confirm(app, token, {
    organization,
    preload_path: loaded.json().preload_path,
    project_title: "Resumable",
    title: "Resumable",
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as number;
}

describe("tus at /api/uploads/", () => {
  it("announces the protocol and refuses requests of another version", async () => {
    const options = await t.app.inject({ method: "OPTIONS", url: "/api/uploads/" });
    expect(options.statusCode).toBe(204);
    expect(options.headers).toMatchObject({
      "tus-resumable": "1.0.0",
      "tus-version": "1.0.0",
      "tus-extension": "creation,creation-with-upload,termination,expiration",
      "tus-max-size": String(t.config.UPLOAD_MAX_BYTES),
    });
    const { owner } = await createOrganization(t);
    const old = await t.app.inject({
      method: "POST",
      url: "/api/uploads/",
      headers: { ...authHeader(owner.token), "tus-resumable": "0.2.2", "upload-length": "10" },
    });
    expect(old.statusCode).toBe(412);
    expect(old.headers["tus-version"]).toBe("1.0.0");
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/uploads/",
      headers: { ...tus, "upload-length": "10" },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("resumes after cuts at several offsets and stores the file byte for byte", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(owner.token, organization.id);
    expect(url).toMatch(/^\/api\/uploads\/[0-9a-f]{32}\/$/);
    let offset = 0;
    // Cut mid-part, mid-part again, then a short request that ends cleanly, then the rest.
    for (const sent of [100_000, 150_000]) {
      await cutPatch(owner.token, url, offset, image.subarray(offset, offset + sent));
      // What arrived is kept up to the last whole part; the part under way is dropped.
      const expected = offset + Math.floor(sent / partBytes) * partBytes;
      const status = await settledAt(t, owner.token, url, expected);
      expect(status.statusCode).toBe(200);
      expect(status.headers["upload-length"]).toBe(String(image.length));
      expect(status.headers["cache-control"]).toBe("no-store");
      offset = expected;
    }
    const short = await patch(owner.token, url, offset, image.subarray(offset, offset + 1000));
    expect(short.statusCode).toBe(204);
    expect(short.headers["upload-offset"]).toBe(String(offset + 1000));
    offset += 1000;
    const rest = await patch(owner.token, url, offset, image.subarray(offset));
    expect(rest.statusCode).toBe(204);
    expect(rest.headers["upload-offset"]).toBe(String(image.length));

    const appId = await finishAsNewApp(t, owner.token, organization.id, url);
    expect(await downloadedSha(t, owner.token, appId)).toBe(sha256(image));
    // Used up: the row and its parts are gone.
    expect((await head(owner.token, url)).statusCode).toBe(404);
    expect(storedParts(organization.id)).toEqual([]);
  });

  it("takes the first bytes with the creation request, and a finish answers as a plain preload", async () => {
    const { organization, owner } = await createOrganization(t);
    const created = await createUpload(
      t,
      owner.token,
      { filename: "Tarmac-1.2.3.dmg", organization: organization.id },
      { body: image },
    );
    expect(created.statusCode).toBe(201);
    expect(created.headers["upload-offset"]).toBe(String(image.length));
    expect(Date.parse(created.headers["upload-expires"] as string)).toBeGreaterThan(
      Date.now() + 23 * 3600_000,
    );
    const viaTus = await finishByPreload(t, owner.token, {
      organization: organization.id,
      upload_id: idOf(created.headers.location as string),
    });
    const plain = await preload(t, owner.token, { organization: organization.id }, dmg("1.2.3"));
    expect(viaTus.statusCode).toBe(200);
    expect(plain.statusCode).toBe(200);
    const { preload_path, expires_at, icon, ...same } = plain.json();
    expect(Object.keys(viaTus.json()).sort()).toEqual(Object.keys(plain.json()).sort());
    expect(viaTus.json()).toMatchObject({ ...same, sha256: sha256(image), file_size: image.length });
  });

  it("answers a wrong offset with 409 and lets one of two racing requests through", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(owner.token, organization.id);
    const wrong = await patch(owner.token, url, 5, image.subarray(5, 100));
    expect(wrong.statusCode).toBe(409);
    const racing = await Promise.all([
      patch(owner.token, url, 0, image.subarray(0, 3000)),
      patch(owner.token, url, 0, image.subarray(0, 5000)),
    ]);
    expect(racing.map((answer) => answer.statusCode).sort()).toEqual([204, 409]);
    const winner = racing.find((answer) => answer.statusCode === 204);
    const status = await head(owner.token, url);
    expect(status.headers["upload-offset"]).toBe(winner?.headers["upload-offset"]);
    const tooMuch = await patch(
      owner.token,
      url,
      Number(status.headers["upload-offset"]),
      Buffer.alloc(image.length),
    );
    expect(tooMuch.statusCode).toBe(413);
  });

  it("keeps uploads to their creators: others get 404 and cannot finish them", async () => {
    const first = await createOrganization(t);
    const second = await createOrganization(t);
    const colleague = await addMember(t, first.organization.id, 2);
    // Two people upload at the same time.
    const [mine, theirs] = await Promise.all([
      started(first.owner.token, first.organization.id),
      started(second.owner.token, second.organization.id),
    ]);
    const halves = await Promise.all([
      patch(first.owner.token, mine, 0, image.subarray(0, 200_000)),
      patch(second.owner.token, theirs, 0, image.subarray(0, 300_000)),
    ]);
    expect(halves.map((answer) => answer.headers["upload-offset"])).toEqual(["200000", "300000"]);
    await Promise.all([
      patch(first.owner.token, mine, 200_000, image.subarray(200_000)),
      patch(second.owner.token, theirs, 300_000, image.subarray(300_000)),
    ]);

    for (const stranger of [second.owner.token, colleague.token]) {
      expect((await head(stranger, mine)).statusCode).toBe(404);
      expect((await patch(stranger, mine, image.length, Buffer.alloc(0))).statusCode).toBe(404);
      const deleted = await t.app.inject({
        method: "DELETE",
        url: mine,
        headers: { ...tus, ...authHeader(stranger) },
      });
      expect(deleted.statusCode).toBe(404);
    }
    // Finishing someone else's upload: in their organization, or in one's own.
    const foreign = await finishByPreload(t, second.owner.token, {
      organization: first.organization.id,
      upload_id: idOf(mine),
    });
    expect(foreign.statusCode).toBe(404);
    const intoOwn = await finishByPreload(t, second.owner.token, {
      organization: second.organization.id,
      upload_id: idOf(mine),
    });
    expect(intoOwn.statusCode).toBe(404);
    // The creator cannot carry it into another organization either, and keeps it.
    const elsewhere = await finishByPreload(t, first.owner.token, {
      organization: second.organization.id,
      upload_id: idOf(mine),
    });
    expect(elsewhere.statusCode).toBe(404);
    const ownApp = await finishAsNewApp(t, second.owner.token, second.organization.id, theirs);
    const [app] = await t.database.db.select().from(versions).where(eq(versions.applicationId, ownApp));
    expect(app?.sha256).toBe(sha256(image));
    const apiKey = await t.services.tokens.issueApiKey(second.owner.user.id);
    const { appKey } = await appKeyOf(second.owner.token, ownApp);
    const viaCi = await ciUpload(appKey, apiKey, { upload_id: idOf(mine) });
    expect(viaCi.statusCode).toBe(404);
    const status = await head(first.owner.token, mine);
    expect(status.statusCode).toBe(200);
    expect(status.headers["upload-offset"]).toBe(String(image.length));
  });

  it("finishes a CI upload with upload_id, answering as a plain CI upload", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(owner.token, organization.id, "1.0.0");
    await patch(owner.token, url, 0, image);
    const appId = await finishAsNewApp(t, owner.token, organization.id, url);
    const { appKey } = await appKeyOf(owner.token, appId);
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);

    const plain = await ciUpload(appKey, apiKey, { whats_new: "plain" }, dmg("1.0.1", "app"));
    expect(plain.statusCode, plain.body).toBe(200);
    const next = await started(owner.token, organization.id, "1.0.2");
    await patch(owner.token, next, 0, image);
    const viaTus = await ciUpload(appKey, apiKey, { upload_id: idOf(next), whats_new: "resumed" });
    expect(viaTus.statusCode, viaTus.body).toBe(200);
    expect(Object.keys(viaTus.json()).sort()).toEqual(Object.keys(plain.json()).sort());
    expect(viaTus.json()).toMatchObject({
      id: appId,
      success: "ok",
      new_version: "1.0.2",
      count_versions: 3,
    });
    expect(viaTus.json().current_version).toMatchObject({ whats_new: "resumed" });
    // The same refusals as a streamed file: that version exists now (error 2, CI's shape).
    const again = await started(owner.token, organization.id, "1.0.2");
    await patch(owner.token, again, 0, image);
    const refused = await ciUpload(appKey, apiKey, { upload_id: idOf(again) });
    const streamed = await ciUpload(appKey, apiKey, {}, dmg("1.0.2", "app"));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(streamed.json());
    // A refusal after the bytes were read uses the upload up, as a streamed file's would be deleted.
    expect((await head(owner.token, again)).statusCode).toBe(404);
    expect(storedParts(organization.id)).toEqual([]);
  });

  it("terminates an upload with its stored parts", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(owner.token, organization.id);
    await patch(owner.token, url, 0, image.subarray(0, 150_000));
    expect(storedParts(organization.id)).toHaveLength(3);
    const deleted = await t.app.inject({
      method: "DELETE",
      url,
      headers: { ...tus, ...authHeader(owner.token) },
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.headers["tus-resumable"]).toBe("1.0.0");
    expect((await head(owner.token, url)).statusCode).toBe(404);
    expect(storedParts(organization.id)).toEqual([]);
  });

  it("expires unfinished uploads: 410 until the sweep removes row and parts", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(owner.token, organization.id);
    const sent = await patch(owner.token, url, 0, image.subarray(0, 70_000));
    const expires = Date.parse(sent.headers["upload-expires"] as string);
    expect(expires).toBeGreaterThan(Date.now() + 23.9 * 3600_000);
    expect(expires).toBeLessThan(Date.now() + 24.1 * 3600_000);
    await t.database.db
      .update(tusUploads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(tusUploads.id, idOf(url)));
    expect((await head(owner.token, url)).statusCode).toBe(410);
    expect((await patch(owner.token, url, 70_000, image.subarray(70_000))).statusCode).toBe(410);
    await t.job("build.expire-preloads").handler({}, { jobId: "test", retryCount: 0 });
    expect((await head(owner.token, url)).statusCode).toBe(404);
    expect(storedParts(organization.id)).toEqual([]);
  });

  it("refuses at creation what a plain upload would be refused for", async () => {
    const { organization, owner } = await createOrganization(t);
    await setLimits(t, organization.id, { spaceLimitMb: 1 });
    await setUsage(t, organization.id, { spaceUsedBytes: 1024 * 1024 - image.length });
    const full = await createUpload(t, owner.token, {
      filename: "Tarmac-1.2.3.dmg",
      organization: organization.id,
    });
    expect(full.statusCode).toBe(400);
    expect(full.json()).toEqual({ error_code: 6, detail: uploadErrorDetails[6] });
    const plain = await preload(t, owner.token, { organization: organization.id }, dmg("1.2.3"));
    expect(plain.json()).toEqual(full.json());
    const huge = await createUpload(
      t,
      owner.token,
      { filename: "Tarmac-1.2.3.dmg", organization: organization.id },
      { length: t.config.UPLOAD_MAX_BYTES + 1 },
    );
    expect(huge.statusCode).toBe(413);
    const exe = await createUpload(t, owner.token, { filename: "tool.exe", organization: organization.id });
    expect(exe.json().error_code).toBe(1);
    const tester = await addMember(t, organization.id, 5);
    const notAllowed = await createUpload(t, tester.token, {
      filename: "a.dmg",
      organization: organization.id,
    });
    expect(notAllowed.statusCode).toBe(403);
    expect(
      await t.database.db.select().from(tusUploads).where(eq(tusUploads.organizationId, organization.id)),
    ).toEqual([]);
  });

  it("works with tus-js-client over a real connection that breaks mid-upload", async () => {
    const { organization, owner } = await createOrganization(t);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address() as net.AddressInfo;
    const proxy = await cuttingProxy(address.port, 200_000);
    try {
      const patchedFrom: number[] = [];
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new Upload(image, {
          endpoint: `http://127.0.0.1:${proxy.port}/api/uploads/`,
          headers: authHeader(owner.token),
          metadata: { filename: "Tarmac-1.2.3.dmg", organization: String(organization.id) },
          retryDelays: [100, 300, 1000, 2000],
          onBeforeRequest: (request) => {
            if (request.getMethod() === "PATCH") patchedFrom.push(Number(request.getHeader("Upload-Offset")));
          },
          onError: reject,
          onSuccess: () => resolve(upload.url as string),
        });
        upload.start();
      });
      expect(proxy.cuts()).toBe(1);
      // The whole file went in one PATCH that broke off; the client went on from what was kept.
      expect(patchedFrom[0]).toBe(0);
      expect(patchedFrom.at(-1)).toBeGreaterThan(0);
      expect((patchedFrom.at(-1) as number) % partBytes).toBe(0);
      const appId = await finishAsNewApp(t, owner.token, organization.id, new URL(url).pathname);
      expect(await downloadedSha(t, owner.token, appId)).toBe(sha256(image));
    } finally {
      await proxy.close();
    }
  });
});

describe("tus on the S3 driver", () => {
  let peer: S3Peer;
  let s3: TestApp;
  beforeAll(async () => {
    peer = await startS3Peer(["instance"]);
    s3 = await createTestApp({
      ...s3StorageEnv(peer, "instance"),
      STORAGE_PROXY_DOWNLOADS: "true",
      UPLOAD_RESUMABLE_PART_BYTES: String(partBytes),
    });
  });
  afterAll(async () => {
    await s3?.close();
    await peer?.stop();
  });

  it("stores parts in the bucket, resumes after a cut and finishes byte for byte", async () => {
    const { organization, owner } = await createOrganization(s3);
    const url = await started(owner.token, organization.id, "1.2.3", s3);
    await cutPatch(owner.token, url, 0, image.subarray(0, 150_000), s3);
    await settledAt(s3, owner.token, url, 2 * partBytes);
    expect((await patch(owner.token, url, 2 * partBytes, image.subarray(2 * partBytes), s3)).statusCode).toBe(
      204,
    );
    const appId = await finishAsNewApp(s3, owner.token, organization.id, url);
    expect(await downloadedSha(s3, owner.token, appId)).toBe(sha256(image));
    const left: string[] = [];
    for await (const object of s3.platform.storage.list(`orgs/${organization.id}/uploads/`))
      left.push(object.key);
    expect(left).toEqual([]);
  });
});

async function appKeyOf(token: string, appId: number): Promise<{ appKey: string }> {
  const record = await t.app.inject({ url: `/api/applications/${appId}/`, headers: authHeader(token) });
  return { appKey: record.json().app_key as string };
}
