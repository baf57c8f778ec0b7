import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("ApplicationService", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("finds apps by membership and environment, 404 otherwise, 403 when not allowed", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id, "Maps Pro");
    const app = await createApp(t, organization.id, { projectId: project.id, environment: "Staging" });
    const service = t.services.applications;

    const found = await service.getAccessibleApp(owner.user.id, app.id, "app:delete");
    expect(found.app.id).toBe(app.id);

    const tester = await addMember(t, organization.id, 5);
    await expect(service.getAccessibleApp(tester.user.id, app.id, "app:read")).rejects.toMatchObject({
      status: 404,
    });
    await addProjectMember(t, project.id, tester.user.id, { role: 5, envs: ["Production"] });
    await expect(service.getAccessibleApp(tester.user.id, app.id, "app:read")).rejects.toMatchObject({
      status: 404,
    });

    const manager = await addMember(t, organization.id, 4);
    await addProjectMember(t, project.id, manager.user.id, { role: 4 });
    await expect(service.getAccessibleApp(manager.user.id, app.id, "build:upload")).resolves.toBeTruthy();
    await expect(service.getAccessibleApp(manager.user.id, app.id, "app:update")).rejects.toMatchObject({
      status: 403,
    });

    const other = await createOrganization(t);
    await expect(service.getAccessibleApp(other.owner.user.id, app.id, "app:read")).rejects.toMatchObject({
      status: 404,
    });
    await expect(service.getAccessibleApp(owner.user.id, 999_999_999, "app:read")).rejects.toMatchObject({
      status: 404,
    });
  });

  it("presents the record with current and previous versions and project facts", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id, "Field Notes");
    const android = await createApp(t, organization.id, { projectId: project.id, appType: 0 });
    const ios = await createApp(t, organization.id, { projectId: project.id, appType: 1 });
    await createApp(t, organization.id, { projectId: project.id, appType: 1, environment: "Staging" });
    await addProjectMember(t, project.id, owner.user.id, { role: 1 });
    for (let i = 1; i <= 7; i += 1) {
      await createVersion(t, android, { version: `1.0.${i}`, uploadedBy: owner.user.id, withIcon: i === 7 });
    }
    const record = await t.services.applications.getRecord(organization.id, android.id);
    expect(record.new_version).toBe("1.0.7");
    expect(record.current_version?.version).toBe("1.0.7");
    expect(record.current_version?.uploaded_by?.id).toBe(owner.user.id);
    expect(record.previous_versions.map((v) => v.version)).toEqual([
      "1.0.6",
      "1.0.5",
      "1.0.4",
      "1.0.3",
      "1.0.2",
    ]);
    expect(record.count_versions).toBe(7);
    expect(record.base_app).toBe(android.id);
    expect(record.project_app).toBe(project.id);
    expect(record.users).toEqual([owner.user.id]);
    expect(record.other_platform.map((link) => link.id)).toEqual([ios.id]);
    expect(record.tag_name).toBe("field_notes_android");
    expect(record.upload_path).toBe(`/api/app_upload/${android.appKey}/`);
    expect(record.icon).toMatch(/^http:\/\/tarmac\.test\/api\/files\//);
    expect(record.current_version?.download_url).toMatch(/\/api\/dl\/\d+\/file\/\?expires=\d+&signature=/);
    const again = await t.services.applications.getRecord(organization.id, android.id);
    expect(again.icon).toBe(record.icon);
  });

  it("records app log entries", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await t.services.appLogs.record({
      organizationId: organization.id,
      applicationId: app.id,
      userId: owner.user.id,
      action: "app.created",
      detail: { title: app.title },
    });
    const page = await t.services.appLogs.list(organization.id, app.id, {
      page: 1,
      pageSize: 20,
      offset: 0,
    });
    expect(page.count).toBe(1);
    expect(page.results[0]).toMatchObject({ action: "app.created", user: { id: owner.user.id } });
  });
});
