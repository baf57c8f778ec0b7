import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { fixture, uploadNewApp, uploadVersion } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface AppRecord {
  id: number;
  organization: number;
  icon?: string | null;
  current_version?: { id: number; icon: string | null } | null;
}

/** A signed icon link without its signature: the stored key it names. */
const iconPath = (url: string | null) => (url ? new URL(url).pathname : null);

async function record(token: string, appId: number): Promise<AppRecord> {
  const response = await t.app.inject({ url: `/api/applications/${appId}/`, headers: authHeader(token) });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function listed(token: string, appId: number): Promise<AppRecord | undefined> {
  const response = await t.app.inject({ url: "/api/applications/", headers: authHeader(token) });
  return (response.json().results as AppRecord[]).find((app) => app.id === appId);
}

/** bare.apk has no version and no icon: the uploader types the version. */
const iconless = (version: string, build: string) => ({
  new_version: version,
  build_version_number: build,
  unique_app_id_changed: true,
});

describe("an app's icon", () => {
  it("stays the icon of its newest build that had one when a new build has none", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = (await uploadNewApp(
      t,
      owner.token,
      organization.id,
      fixture("android/modern.apk"),
    )) as AppRecord;
    const original = iconPath(app.icon ?? null);
    expect(original).toMatch(/^\/api\/files\/orgs\/\d+\/icons\//);

    const next = await uploadVersion(
      t,
      owner.token,
      app,
      fixture("android/bare.apk"),
      iconless("3.0.0", "3000"),
    );
    expect(next.statusCode).toBe(201);
    const after = next.json() as AppRecord;
    expect(after.current_version?.icon).toBeNull();
    expect(iconPath(after.icon ?? null)).toBe(original);
    expect(iconPath((await record(owner.token, app.id)).icon ?? null)).toBe(original);
    expect(iconPath((await listed(owner.token, app.id))?.icon ?? null)).toBe(original);

    // The kept icon is served like any other.
    const icon = await t.app.inject({ url: (after.icon as string).replace("http://tarmac.test", "") });
    expect(icon.statusCode).toBe(200);
    expect(icon.rawPayload.subarray(1, 4).toString()).toBe("PNG");

    // Once the build that had it is deleted, no build has an icon: the app shows none.
    const builds = await t.app.inject({
      url: `/api/applications/${app.id}/builds/`,
      headers: authHeader(owner.token),
    });
    const withIcon = (builds.json().results as { id: number; icon: string | null }[]).find(
      (build) => build.icon,
    );
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/versions/${withIcon?.id}/`,
      headers: authHeader(owner.token),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await record(owner.token, app.id)).icon).toBeNull();
  });

  it("is the current build's own when that build has one", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = (await uploadNewApp(t, owner.token, organization.id, fixture("android/bare.apk"), {
      new_version: "0.1.0",
      build_version_number: "1",
    })) as AppRecord;
    // An app that never had an icon shows none.
    expect(app.icon).toBeNull();
    const next = await uploadVersion(t, owner.token, app, fixture("android/modern.apk"), {
      unique_app_id_changed: true,
    });
    expect(next.statusCode).toBe(201);
    const after = next.json() as AppRecord;
    expect(after.icon).not.toBeNull();
    expect(iconPath(after.icon ?? null)).toBe(iconPath(after.current_version?.icon ?? null));
  });
});
