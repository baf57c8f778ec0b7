import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, uploadNewApp } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** A multipart body with two file parts, the way an attacker might send one. */
function twoFiles(fields: Record<string, string | number>, field: string) {
  const boundary = `----tarmac${randomBytes(8).toString("hex")}`;
  const content = fixture("android/modern.apk").content;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  for (const name of ["one.apk", "two.apk"]) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      ),
      content,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

describe("a refused upload leaves nothing behind", () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createOrganization>>["owner"];
  let organizationId: number;
  const builds = () => {
    try {
      return readdirSync(path.join(t.config.STORAGE_LOCAL_DIR, "orgs", String(organizationId), "builds"));
    } catch {
      return [];
    }
  };
  beforeAll(async () => {
    t = await createTestApp();
    const created = await createOrganization(t);
    owner = created.owner;
    organizationId = created.organization.id;
  });
  afterAll(() => t.close());

  it("deletes the first file of a preload with two file parts at once", async () => {
    const body = twoFiles({ organization: organizationId }, "file");
    const response = await t.app.inject({
      method: "POST",
      url: "/api/applicationadd/?preload=1",
      payload: body.payload,
      headers: { ...body.headers, ...authHeader(owner.token) },
    });
    expect(response.statusCode).toBe(413);
    expect(builds()).toEqual([]);
  });

  it("deletes the first file of a CI upload with two file parts at once", async () => {
    const app = await uploadNewApp(t, owner.token, organizationId, fixture("android/modern.apk"));
    const before = builds();
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
    const body = twoFiles({}, "app");
    const response = await t.app.inject({
      method: "PUT",
      url: `/api/app_upload/${app.app_key}/${apiKey}/`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(response.statusCode).toBe(413);
    expect(builds()).toEqual(before);
  });
});
