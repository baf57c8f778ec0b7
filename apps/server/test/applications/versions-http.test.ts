import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { applications, organizations, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";

describe("versions and downloads over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const versionRow = async (id: number) =>
    (await t.database.db.select().from(versions).where(eq(versions.id, id)))[0];

  it("reads and edits a version through /versions/ and /releases/", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const v = await createVersion(t, app);
    const got = await t.app.inject({ url: `/api/versions/${v.id}/`, headers: authHeader(owner.token) });
    expect(got.json()).toMatchObject({ id: v.id, version: v.version, download_count: 0 });
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/versions/${v.id}/`,
      headers: authHeader(owner.token),
      payload: { comment: "checked", whats_new: "fixes" },
    });
    expect(put.json()).toMatchObject({ comment: "checked", whats_new: "fixes" });
    const release = await t.app.inject({
      method: "PATCH",
      url: `/api/releases/${v.id}/`,
      headers: authHeader(owner.token),
      payload: { ready_to_sale: false },
    });
    expect(release.json()).toMatchObject({ ready_to_sale: false, comment: "checked" });
  });

  it("deletes the current version, makes the newest remaining current and queues file removal", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const older = await createVersion(t, app);
    const newer = await createVersion(t, app);
    const res = await t.app.inject({
      method: "DELETE",
      url: `/api/versions/${newer.id}/`,
      headers: authHeader(owner.token),
    });
    expect(res.statusCode).toBe(204);
    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, app.id));
    expect(row).toMatchObject({ currentVersionId: older.id, versionsCount: 1 });
    const [org] = await t.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, organization.id));
    expect(org).toMatchObject({ buildsCount: 1, spaceUsedBytes: older.fileSize });
    const jobs = await t.database.sql.executeSql(
      "select data - '$request_id' as data from pgboss.job where name = 'build.delete-files'",
    );
    expect(jobs.rows.map((job) => job.data)).toContainEqual({ keys: [newer.fileKey] });
    await t.job("build.delete-files").handler({ keys: [newer.fileKey] }, { jobId: "x", retryCount: 0 });
    expect(await t.platform.storage.stat(newer.fileKey)).toBeNull();
    // Idempotent: a retry after the files are gone succeeds.
    await t.job("build.delete-files").handler({ keys: [newer.fileKey] }, { jobId: "x", retryCount: 1 });
  });

  it("downloads through a signed link with ranges, and counts completed downloads only", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const v = await createVersion(t, app, { fileName: "Field Notes.apk" });
    const redirect = await t.app.inject({
      url: `/api/versions/${v.id}/download/`,
      headers: authHeader(owner.token),
    });
    expect(redirect.statusCode).toBe(302);
    const link = new URL(redirect.headers.location as string);
    const url = `${link.pathname}${link.search}`;

    const head = await t.app.inject({ method: "HEAD", url });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-length"]).toBe(String(v.fileSize));
    expect(head.headers["content-type"]).toBe("application/vnd.android.package-archive");
    expect(head.headers["content-disposition"]).toContain("Field Notes.apk");

    const first = await t.app.inject({ url, headers: { range: "bytes=0-9" } });
    expect(first.statusCode).toBe(206);
    expect(first.rawPayload).toHaveLength(10);
    const tail = await t.app.inject({ url, headers: { range: "bytes=10-" } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toHaveLength(v.fileSize - 10);
    const full = await t.app.inject({ url });
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload).toHaveLength(v.fileSize);
    await waitFor(async () => ((await versionRow(v.id))?.downloadCount === 2 ? true : undefined));

    const outside = await t.app.inject({ url, headers: { range: `bytes=${v.fileSize + 5}-` } });
    expect(outside.statusCode).toBe(416);
    const forged = await t.app.inject({ url: url.replace(/signature=[^&]+/, "signature=AAAAAAAAAAAAAAAA") });
    expect(forged.statusCode).toBe(403);
    const otherKind = await t.app.inject({ url: url.replace("/file/", "/universal-apk/") });
    expect(otherKind.statusCode).toBe(403);
    expect((await versionRow(v.id))?.downloadCount).toBe(2);
  });

  it("hides builds from members without access to the environment, and unreleased ones from testers", async () => {
    const { organization } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    const staging = await createApp(t, organization.id, { projectId: project.id, environment: "Staging" });
    const prod = await createApp(t, organization.id, { projectId: project.id });
    const hidden = await createVersion(t, staging);
    const draft = await createVersion(t, prod, { readyToSale: false });
    const released = await createVersion(t, prod);
    const tester = await addMember(t, organization.id, 5);
    await addProjectMember(t, project.id, tester.user.id, { role: 5, envs: ["Production"] });
    const as = (url: string) => t.app.inject({ url, headers: authHeader(tester.token) });
    expect((await as(`/api/applications/${staging.id}/builds/`)).statusCode).toBe(404);
    expect((await as(`/api/versions/${hidden.id}/download/`)).statusCode).toBe(404);
    expect((await as(`/api/versions/${draft.id}/`)).statusCode).toBe(404);
    expect((await as(`/api/versions/${released.id}/download/`)).statusCode).toBe(302);
    const builds = await as(`/api/applications/${prod.id}/builds/`);
    expect(builds.json().results.map((row: { id: number }) => row.id)).toEqual([released.id]);
    const edit = await t.app.inject({
      method: "PATCH",
      url: `/api/versions/${released.id}/`,
      headers: authHeader(tester.token),
      payload: { comment: "x" },
    });
    expect(edit.statusCode).toBe(403);
  });
});
