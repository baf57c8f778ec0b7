import { describe, expect, it } from "vitest";
import { dmg, uploadNewApp, uploadVersion } from "../builds/upload-helpers.ts";
import { addProjectMember, createApp, createVersion } from "../helpers/app-factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { pushesAt, pushService, settle, subscribeBrowser, t, usePushWorld } from "./push-world.ts";

usePushWorld();

const roles = { admin: 2, mobileUser: 3, teamManager: 4, tester: 5 };

describe("pushes about new builds", () => {
  it("tell those who may install or test the app, each where their builds are, but not the uploader", async () => {
    const { organization, owner } = await createOrganization(t);
    const admin = await addMember(t, organization.id, roles.admin);
    const installer = await addMember(t, organization.id, roles.mobileUser);
    const outsider = await addMember(t, organization.id, roles.mobileUser);
    const ownerBrowser = await subscribeBrowser(owner.token);
    const adminBrowser = await subscribeBrowser(admin.token);
    const installerBrowser = await subscribeBrowser(installer.token);
    const outsiderBrowser = await subscribeBrowser(outsider.token);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("2.0.0"), { title: "Pilot" });
    const [first] = await pushesAt(adminBrowser.path, 1);
    expect(first).toMatchObject({
      kind: "build",
      // The Windows/macOS rule: the build number is the version without its dots.
      title: "Pilot 2.0.0 (200)",
      body: "A new build is ready to install.",
      url: `/dashboard/apps/${app.id}`,
    });

    // Project members see the app (here: its Production environment); mobile users land in the mobile area.
    const [row] = await t.services.applications.findApp(organization.id, app.id).then((found) => [found]);
    await addProjectMember(t, row?.projectId ?? 0, installer.user.id, { role: roles.mobileUser });
    expect((await uploadVersion(t, owner.token, app, dmg("2.1.0"))).statusCode).toBe(201);
    const [forInstaller] = await pushesAt(installerBrowser.path, 1);
    expect(forInstaller).toMatchObject({ kind: "build", title: "Pilot 2.1.0 (210)", url: "/dashboard/m" });
    expect((await pushesAt(adminBrowser.path, 2))[1]).toMatchObject({ title: "Pilot 2.1.0 (210)" });
    await settle();
    expect(pushService.at(ownerBrowser.path)).toEqual([]);
    expect(pushService.at(outsiderBrowser.path)).toEqual([]);
    expect(pushService.at(installerBrowser.path)).toHaveLength(1);
  });

  it("tell installers nothing of a build not released to them", async () => {
    const { organization } = await createOrganization(t);
    const tester = await addMember(t, organization.id, roles.tester);
    const manager = await addMember(t, organization.id, roles.teamManager);
    const app = await createApp(t, organization.id, { title: "Beta" });
    await addProjectMember(t, app.projectId, tester.user.id, { role: roles.tester });
    await addProjectMember(t, app.projectId, manager.user.id, { role: roles.teamManager });
    const testerBrowser = await subscribeBrowser(tester.token, { language: "ru" });
    const managerBrowser = await subscribeBrowser(manager.token);
    const hidden = await createVersion(t, app, { version: "0.9", buildNumber: "9", readyToSale: false });
    const shown = await createVersion(t, app, { version: "1.0", buildNumber: "10" });
    for (const version of [hidden, shown]) {
      await t.platform.events.publish({
        type: "build.ready",
        organizationId: organization.id,
        applicationId: app.id,
        versionId: version.id,
      });
    }
    const managerPushes = await pushesAt(managerBrowser.path, 2);
    expect(managerPushes.map((push) => push.title).sort()).toEqual(["Beta 0.9 (9)", "Beta 1.0 (10)"]);
    const [testerPush] = await pushesAt(testerBrowser.path, 1);
    expect(testerPush).toMatchObject({ title: "Beta 1.0 (10)", body: "Новая сборка готова к установке." });
    await settle();
    expect(pushService.at(testerBrowser.path)).toHaveLength(1);
  });
});

describe("pushes about feedback and store uploads", () => {
  it("tell who looks after the app of a report, at most three an hour per app", async () => {
    const { organization, owner } = await createOrganization(t);
    const installer = await addMember(t, organization.id, roles.mobileUser);
    const app = await createApp(t, organization.id, { title: "Radar" });
    await addProjectMember(t, app.projectId, installer.user.id);
    const ownerBrowser = await subscribeBrowser(owner.token, { language: "de" });
    const installerBrowser = await subscribeBrowser(installer.token);
    for (let id = 1; id <= 5; id += 1) {
      await t.platform.events.publish({
        type: "feedback.received",
        organizationId: organization.id,
        applicationId: app.id,
        data: { feedback: { id: 1000 + id, tag: "bug", description: `Crash number ${id}` } },
      });
    }
    const pushes = await pushesAt(ownerBrowser.path, 3);
    expect(pushes[0]).toMatchObject({ kind: "feedback", title: "Radar: neue Rückmeldung (bug)" });
    // Events run side by side: which three of the five are pushed is not fixed, only that three are.
    const urls = new Set(pushes.map((push) => push.url));
    expect(urls.size).toBe(3);
    for (const url of urls) expect(url).toMatch(/^\/dashboard\/feedback\/100[1-5]$/);
    await settle();
    expect(pushService.at(ownerBrowser.path)).toHaveLength(3);
    expect(pushService.at(installerBrowser.path)).toEqual([]);
  });

  it("tell whoever started a store upload that it finished, once however often the event runs", async () => {
    const { organization, owner } = await createOrganization(t);
    const admin = await addMember(t, organization.id, roles.admin);
    const app = await createApp(t, organization.id, { title: "Orbit", appType: 1 });
    const version = await createVersion(t, app, { version: "3.2", buildNumber: "41" });
    const ownerBrowser = await subscribeBrowser(owner.token);
    const adminBrowser = await subscribeBrowser(admin.token);
    const event = {
      id: "msg_store_upload_test",
      type: "store_upload.finished" as const,
      occurredAt: new Date().toISOString(),
      organizationId: organization.id,
      applicationId: app.id,
      versionId: version.id,
      // As the store module publishes it when an upload ends.
      data: {
        message: "Sent",
        store_upload: { task_id: "t1", store: "app_store", started_by: admin.user.id },
      },
    };
    // The event job runs its listeners again after any failure: the push goes out once.
    await t.services.pushNotify.onEvent(event);
    await t.services.pushNotify.onEvent(event);
    const [push] = await pushesAt(adminBrowser.path, 1);
    expect(push).toEqual({
      kind: "store_upload",
      title: "Orbit: sent to TestFlight",
      body: "Build 3.2 (41) was uploaded to TestFlight.",
      url: `/dashboard/apps/${app.id}`,
      tag: `store-${app.id}`,
    });
    await settle();
    expect(pushService.at(adminBrowser.path)).toHaveLength(1);
    expect(pushService.at(ownerBrowser.path)).toEqual([]);
  });
});
