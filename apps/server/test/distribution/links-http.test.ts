import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("install links over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const list = (token: string, appId: number) =>
    t.app.inject({ url: `/api/distributions/?app=${appId}`, headers: authHeader(token) });
  const create = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: "/api/distributions/", headers: authHeader(token), payload });

  it("gives every app one public app-level link, with its URL and QR code", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const [first, second] = await Promise.all([list(owner.token, app.id), list(owner.token, app.id)]);
    expect(first.statusCode).toBe(200);
    expect(first.json().results).toHaveLength(1);
    expect(second.json()).toEqual(first.json());
    const [link] = first.json().results;
    expect(link).toMatchObject({ app: app.id, version: null, access: "public", has_password: false });
    expect(link.url).toBe(`http://tarmac.test/getapp/${link.key}`);
    expect(link.qr).toMatch(/^data:image\/png;base64,/);
    expect(link.counts).toEqual({ install: 0, download: 0 });
  });

  it("creates, changes and deletes version links; the app record lists them", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const v = await createVersion(t, app);
    const res = await create(owner.token, {
      app: app.id,
      version: v.id,
      access: "password",
      password: "open sesame",
      expires_at: "2099-01-01T00:00:00Z",
      install_limit: 5,
    });
    expect(res.statusCode).toBe(201);
    const link = res.json();
    expect(link).toMatchObject({ version: v.id, access: "password", has_password: true, install_limit: 5 });
    expect(link.expires_at).toBe("2099-01-01T00:00:00.000Z");

    const noPassword = await create(owner.token, { app: app.id, access: "password" });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toHaveProperty("password");

    const patched = await t.app.inject({
      method: "PATCH",
      url: `/api/distributions/${link.id}/`,
      headers: authHeader(owner.token),
      payload: { access: "members", expires_at: null },
    });
    expect(patched.json()).toMatchObject({ access: "members", has_password: false, expires_at: null });

    const detail = await t.app.inject({
      url: `/api/applications/${app.id}/?distribs=1`,
      headers: authHeader(owner.token),
    });
    expect(detail.json().distribution.map((d: { id: number }) => d.id)).toContain(link.id);
    expect(detail.json().distribution[0].version).toBeNull();
    const one = await t.app.inject({
      url: `/api/applications/${app.id}/?distrib_details=${link.id}`,
      headers: authHeader(owner.token),
    });
    expect(one.json().distribution).toEqual([expect.objectContaining({ id: link.id, access: "members" })]);

    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/distributions/${link.id}/`,
      headers: authHeader(owner.token),
    });
    expect(removed.statusCode).toBe(204);
    expect((await list(owner.token, app.id)).json().results).toHaveLength(1);
  });

  it("refuses a version of another app", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const other = await createApp(t, organization.id);
    const v = await createVersion(t, other);
    const res = await create(owner.token, { app: app.id, version: v.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty("version");
  });

  it("lets team managers of the project manage links, mobile users only read them", async () => {
    const { organization } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const manager = await addMember(t, organization.id, 4);
    const mobile = await addMember(t, organization.id, 3);
    const outsider = await addMember(t, organization.id, 4);
    await addProjectMember(t, app.projectId, manager.user.id, { role: 4 });
    await addProjectMember(t, app.projectId, mobile.user.id, { role: 3 });
    expect((await create(manager.token, { app: app.id })).statusCode).toBe(201);
    expect((await create(mobile.token, { app: app.id })).statusCode).toBe(403);
    expect((await list(mobile.token, app.id)).statusCode).toBe(200);
    expect((await create(outsider.token, { app: app.id })).statusCode).toBe(404);
    expect((await list(outsider.token, app.id)).statusCode).toBe(404);
  });

  it("answers 404 for another organization's apps and links", async () => {
    const { organization, owner } = await createOrganization(t);
    const stranger = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const link = (await create(owner.token, { app: app.id })).json();
    const v = await createVersion(t, app);
    const as = authHeader(stranger.owner.token);
    expect((await list(stranger.owner.token, app.id)).statusCode).toBe(404);
    expect((await create(stranger.owner.token, { app: app.id })).statusCode).toBe(404);
    for (const method of ["PATCH", "DELETE"] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/distributions/${link.id}/`,
        headers: as,
        ...(method === "PATCH" ? { payload: { install_limit: 1 } } : {}),
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: `/api/versions/${v.id}/installs/`, headers: as })).statusCode).toBe(
      404,
    );
    const pdf = await t.app.inject({ url: `/api/applications/${app.id}/permanent_link_pdf/`, headers: as });
    expect(pdf.statusCode).toBe(404);
  });

  it("documents the distribution endpoints in the OpenAPI description", async () => {
    const res = await t.app.inject({ url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const expected of [
      "/api/distributions/",
      "/api/distributions/{id}/",
      "/api/getapp/{key}/",
      "/api/getapp/{key}/unlock/",
      "/api/udid/profile/",
      "/api/udid/devices/",
      "/api/versions/{id}/installs/",
      "/api/applications/{id}/permanent_link_pdf/",
    ]) {
      expect(paths).toContain(expected);
    }
  });

  it("prints the permanent link as a PDF with the app's name", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Runway Checklist" });
    await createVersion(t, app, { fixture: "android/modern.apk" });
    const res = await t.app.inject({
      url: `/api/applications/${app.id}/permanent_link_pdf/`,
      headers: authHeader(owner.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="Runway-Checklist/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const dir = mkdtempSync(path.join(os.tmpdir(), "tarmac-pdf-"));
    try {
      writeFileSync(path.join(dir, "link.pdf"), res.rawPayload);
      const text = execFileSync("pdftotext", [path.join(dir, "link.pdf"), "-"], { encoding: "utf8" });
      expect(text).toContain("Runway Checklist");
      const [link] = (await list(owner.token, app.id)).json().results;
      expect(text.replace(/\s+/g, "")).toContain(link.url);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
