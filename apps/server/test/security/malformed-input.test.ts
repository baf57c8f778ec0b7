import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, multipart } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("malformed input gets a clear 4xx", () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createOrganization>>["owner"];
  let organizationId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const created = await createOrganization(t);
    owner = created.owner;
    organizationId = created.organization.id;
  });
  afterAll(() => t.close());

  const upload = (payload: Buffer | string, contentType: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/applicationadd/?preload=1",
      payload,
      headers: { "content-type": contentType, ...authHeader(owner.token) },
    });

  it("a UDID that is not one", async () => {
    const response = await t.app.inject({
      url: "/api/udid/lookup/?udid=abc",
      headers: authHeader(owner.token),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toHaveProperty("udid");
  });

  it("a multipart body without its final boundary", async () => {
    const body = multipart({ organization: organizationId }, fixture("android/bare.apk"));
    const text = body.payload.toString("latin1");
    const cut = Buffer.from(text.slice(0, text.lastIndexOf("--")), "latin1");
    const response = await upload(cut, body.headers["content-type"]);
    expect(response.statusCode, response.body).toBe(400);
  });

  it("a body that is not multipart on an upload route", async () => {
    for (const [payload, type] of [
      ['{"organization": 1}', "application/json"],
      ["file=x", "application/x-www-form-urlencoded"],
      ["plain text", "text/plain"],
      ["\u0000\u0001", "application/octet-stream"],
    ] as const) {
      const response = await upload(payload, type);
      expect(response.statusCode, `${type}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({ file: ["Send the build as multipart/form-data."] });
    }
  });
});
