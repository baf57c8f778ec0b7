import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { udidEnrollments } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { createIosBuild } from "./distribution-fixtures.ts";

describe("UDID collection over HTTP", () => {
  let t: TestApp;
  let dir: string;
  let sequence = 0;
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });

  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(path.join(os.tmpdir(), "tarmac-udid-"));
    // The device's own certificate: the server checks the signature, not Apple's chain.
    openssl(
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "device.key",
      "-out",
      "device.pem",
      "-subj",
      "/CN=Apple iPhone Device",
      "-days",
      "2",
    );
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Downloads the profile, checks its CMS signature with openssl and returns its payload. */
  async function fetchProfile(headers: Record<string, string> = {}) {
    const res = await t.app.inject({ url: "/api/udid/profile/", headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/x-apple-aspen-config");
    sequence += 1;
    writeFileSync(path.join(dir, `profile-${sequence}.mobileconfig`), res.rawPayload);
    openssl(
      "cms",
      "-verify",
      "-inform",
      "DER",
      "-noverify",
      "-in",
      `profile-${sequence}.mobileconfig`,
      "-out",
      `profile-${sequence}.plist`,
    );
    const payload = plist.parse(readFileSync(path.join(dir, `profile-${sequence}.plist`), "utf8")) as {
      PayloadType: string;
      PayloadContent: { URL: string; Challenge: string; DeviceAttributes: string[] };
    };
    return payload;
  }

  /** What the device posts back: its attributes, signed with its certificate. */
  function deviceReply(attributes: Record<string, string>): Buffer {
    sequence += 1;
    writeFileSync(path.join(dir, `reply-${sequence}.plist`), plist.build(attributes));
    openssl(
      "cms",
      "-sign",
      "-nodetach",
      "-binary",
      "-outform",
      "DER",
      "-in",
      `reply-${sequence}.plist`,
      "-signer",
      "device.pem",
      "-inkey",
      "device.key",
      "-out",
      `reply-${sequence}.der`,
    );
    return readFileSync(path.join(dir, `reply-${sequence}.der`));
  }

  const enroll = (body: Buffer) =>
    t.app.inject({
      method: "POST",
      url: "/api/udid/enroll/",
      headers: { "content-type": "application/pkcs7-signature" },
      payload: body,
    });

  it("registers a device through the signed profile and lists the builds that include it", async () => {
    const { organization, owner } = await createOrganization(t);
    const { version, devices } = await createIosBuild(t, organization.id);
    const [udid, otherUdid] = devices as [string, string];

    const profile = await fetchProfile(authHeader(owner.token));
    expect(profile.PayloadType).toBe("Profile Service");
    expect(profile.PayloadContent.URL).toBe("http://tarmac.test/api/udid/enroll/");
    expect(profile.PayloadContent.DeviceAttributes).toContain("UDID");
    const attributes = {
      UDID: udid,
      PRODUCT: "iPhone13,2",
      VERSION: "21E236",
      SERIAL: "F2LXK0ABCDEF",
      CHALLENGE: profile.PayloadContent.Challenge,
    };
    const res = await enroll(deviceReply(attributes));
    expect(res.statusCode).toBe(301);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname).toBe("http://tarmac.test/get-my-udid");
    expect(Object.fromEntries(location.searchParams)).toEqual({
      udid,
      product: "iPhone13,2",
      version: "21E236",
    });
    // The challenge works once.
    expect((await enroll(deviceReply(attributes))).statusCode).toBe(400);

    const mine = await t.app.inject({ url: "/api/udid/devices/", headers: authHeader(owner.token) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([
      expect.objectContaining({
        udid,
        product: "iPhone13,2",
        os_version: "21E236",
        serial: "F2LXK0ABCDEF",
        builds: [expect.objectContaining({ id: version.id, version: "2.3.1", app_type: 1 })],
      }),
    ]);

    const lookup = await t.app.inject({
      url: `/api/udid/lookup/?udid=${otherUdid.toUpperCase()}`,
      headers: authHeader(owner.token),
    });
    expect(lookup.json().builds.map((b: { id: number }) => b.id)).toEqual([version.id]);

    // Builds of apps the caller may not read stay out of the answer.
    const outsider = await addMember(t, organization.id, 3);
    const stranger = await createOrganization(t);
    for (const token of [outsider.token, stranger.owner.token]) {
      const hidden = await t.app.inject({
        url: `/api/udid/lookup/?udid=${udid}`,
        headers: authHeader(token),
      });
      expect(hidden.json()).toEqual({ udid, builds: [] });
    }
  });

  it("refuses replies without an open enrollment, unsigned or oversized bodies", async () => {
    const unknown = await enroll(deviceReply({ UDID: "00008030-001A2D3C0E78802E", CHALLENGE: "made-up" }));
    expect(unknown.statusCode).toBe(400);
    expect((await enroll(Buffer.from("not a pkcs7 message"))).statusCode).toBe(400);
    expect((await enroll(Buffer.alloc(70 * 1024, 1))).statusCode).toBe(413);
  });

  it("limits profile downloads per address and drops expired enrollments", async () => {
    const fetchFrom = () => t.app.inject({ url: "/api/udid/profile/", remoteAddress: "192.0.2.44" });
    for (let i = 0; i < 30; i += 1) expect((await fetchFrom()).statusCode).toBe(200);
    const refused = await fetchFrom();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    const before = (await t.database.db.select().from(udidEnrollments)).length;
    expect(before).toBeGreaterThanOrEqual(30);
    const removed = await t.services.udid.deleteExpiredEnrollments(
      new Date(Date.now() + 3 * 24 * 3600 * 1000),
    );
    expect(removed).toBe(before);
    expect(await t.database.db.select().from(udidEnrollments)).toEqual([]);
  });

  it("keeps a device registered without signing in out of everyone's list", async () => {
    const { owner } = await createOrganization(t);
    const profile = await fetchProfile();
    const res = await enroll(
      deviceReply({ UDID: "00008101-000A1B2C3D4E5F6A", CHALLENGE: profile.PayloadContent.Challenge }),
    );
    expect(res.statusCode).toBe(301);
    const mine = await t.app.inject({ url: "/api/udid/devices/", headers: authHeader(owner.token) });
    expect(mine.json()).toEqual([]);
    expect((await t.app.inject({ url: "/api/udid/devices/" })).statusCode).toBe(401);
  });
});
