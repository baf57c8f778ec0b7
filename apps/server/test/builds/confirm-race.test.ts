import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../helpers/org-factories.ts";
import { versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { confirm, dmg, preload, setLimits, uploadNewApp, usageOf } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function preloadPath(token: string, organization: number, app: number, version: string) {
  const response = await preload(t, token, { organization, app }, dmg(version));
  expect(response.statusCode).toBe(200);
  return response.json().preload_path as string;
}

// Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set: there the two requests
// really do overlap, and only the organization lock keeps the counters honest.
describe("racing confirms", () => {
  it("for the last build slot: one 201, one error 7", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("1.0.0"));
    const [first, second] = await Promise.all([
      preloadPath(owner.token, organization.id, app.id, "1.0.1"),
      preloadPath(owner.token, organization.id, app.id, "1.0.2"),
    ]);
    // Lowered after both were admitted (a preload holds its slot, so it could not be later).
    await setLimits(t, organization.id, { buildLimit: 2 });
    const responses = await Promise.all([
      confirm(t, owner.token, { organization: organization.id, preload_path: first }, app.id),
      confirm(t, owner.token, { organization: organization.id, preload_path: second }, app.id),
    ]);
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 400]);
    expect(responses.find((response) => response.statusCode === 400)?.json().error_code).toBe(7);
    expect((await usageOf(t, organization.id)).buildsCount).toBe(2);
  });

  it("with the same version: one 201, one error 2", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("1.0.0"));
    const [first, second] = await Promise.all([
      preloadPath(owner.token, organization.id, app.id, "1.1.0"),
      preloadPath(owner.token, organization.id, app.id, "1.1.0"),
    ]);
    const responses = await Promise.all([
      confirm(t, owner.token, { organization: organization.id, preload_path: first }, app.id),
      confirm(t, owner.token, { organization: organization.id, preload_path: second }, app.id),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 400]);
    expect(responses.find((response) => response.statusCode === 400)?.json().error_code).toBe(2);
    const rows = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
    expect(rows.map((row) => row.version).sort()).toEqual(["1.0.0", "1.1.0"]);
    expect((await usageOf(t, organization.id)).buildsCount).toBe(2);
  });
});
