import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { type S3Peer, s3StorageEnv, startS3Peer } from "../helpers/s3-peer.ts";
import { tusUploads } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import {
  createUpload,
  downloadedSha,
  finishAsNewApp,
  finishByPreload,
  idOf,
  image,
  partBytes,
  resumableClient,
  settledAt,
  sha256,
  tus,
} from "./resumable-helpers.ts";
import { dmg, preload } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_RESUMABLE_PART_BYTES: String(partBytes) });
});
afterAll(async () => {
  await t.close();
});

const { started, patch, head, cutPatch, storedParts } = resumableClient(() => t);

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

  it("terminates an upload with its stored parts", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(owner.token, organization.id);
    await patch(owner.token, url, 0, image.subarray(0, 150_000));
    // On the local disk the bytes are assembled in one file, written at each piece's offset.
    expect(storedParts(organization.id)).toEqual(["data"]);
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
