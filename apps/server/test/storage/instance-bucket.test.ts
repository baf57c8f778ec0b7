import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dmg, fixturePath, uploadNewApp } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { type S3Peer, s3StorageEnv, startS3Peer } from "../helpers/s3-peer.ts";
import { versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let peer: S3Peer;
const dmgBytes = readFileSync(fixturePath("apple/dmg/Tarmac-1.2.3.dmg"));

beforeAll(async () => {
  peer = await startS3Peer(["instance"]);
  t = await createTestApp({
    ...s3StorageEnv(peer, "instance"),
    S3_PREFIX: "tarmac",
    STORAGE_PROXY_DOWNLOADS: "true",
  });
});
afterAll(async () => {
  await t?.close();
  await peer?.stop();
});

describe("the instance's storage in a bucket private to the server", () => {
  it("streams downloads through the server with Range, and its readiness follows the bucket", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("1.0.0"));
    const [version] = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
    if (!version) throw new Error("no version");
    const redirect = await t.app.inject({
      url: `/api/versions/${version.id}/download/`,
      headers: authHeader(owner.token),
    });
    const link = new URL(redirect.headers.location as string);
    expect(link.origin).toBe("http://tarmac.test");
    const whole = await t.app.inject({ url: `${link.pathname}${link.search}` });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(dmgBytes)).toBe(true);
    const part = await t.app.inject({
      url: `${link.pathname}${link.search}`,
      headers: { range: "bytes=0-0" },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 0-0/${dmgBytes.length}`);
    expect(part.rawPayload.equals(dmgBytes.subarray(0, 1))).toBe(true);

    expect((await t.app.inject({ url: "/api/health/ready/" })).statusCode).toBe(200);
    await peer.stop();
    const down = await t.app.inject({ url: "/api/health/ready/" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ checks: { storage: { ok: false } } });
  });
});
