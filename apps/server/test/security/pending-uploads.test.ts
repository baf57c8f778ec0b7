import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirm, fixture, preload, setLimits } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { organizations } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const apk = () => fixture("android/modern.apk");
const apkSize = apk().content.length;
const mb = 1024 * 1024;

describe("uploads waiting for confirmation hold their place in the plan", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_PENDING_PER_USER: "3" });
  });
  afterAll(() => t.close());

  const usage = async (token: string, org: number) =>
    (await t.app.inject({ url: `/api/organization/usage/?org=${org}`, headers: authHeader(token) })).json();
  const setSpaceUsed = (org: number, bytes: number) =>
    t.database.db.update(organizations).set({ spaceUsedBytes: bytes }).where(eq(organizations.id, org));

  it("counts preloads against the space limit until confirmed, discarded or expired", async () => {
    const { organization, owner } = await createOrganization(t);
    await setLimits(t, organization.id, { spaceLimitMb: 1 });
    // Room for two more builds of this size, not three.
    await setSpaceUsed(organization.id, mb - Math.floor(2.5 * apkSize));
    const first = await preload(t, owner.token, { organization: organization.id }, apk());
    const second = await preload(t, owner.token, { organization: organization.id }, apk());
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const third = await preload(t, owner.token, { organization: organization.id }, apk());
    expect(third.statusCode).toBe(400);
    expect(third.json().error_code).toBe(6);

    const held = await usage(owner.token, organization.id);
    expect(held.pending_uploads).toBe(2);
    expect(held.pending_space).toBeCloseTo((2 * apkSize) / mb, 2);

    // Discarding gives the place back at once.
    const discarded = await t.app.inject({
      method: "DELETE",
      url: `/api/preloads/${first.json().preload_path}/`,
      headers: authHeader(owner.token),
    });
    expect(discarded.statusCode).toBe(204);
    expect((await usage(owner.token, organization.id)).pending_uploads).toBe(1);
    expect((await preload(t, owner.token, { organization: organization.id }, apk())).statusCode).toBe(200);

    // Confirming moves the bytes from waiting to used.
    const created = await confirm(t, owner.token, {
      organization: organization.id,
      preload_path: second.json().preload_path,
      project_title: "Held",
      title: "Held",
    });
    expect(created.statusCode).toBe(201);
    const after = await usage(owner.token, organization.id);
    expect(after.pending_uploads).toBe(1);

    // Expiry gives back what is left.
    await t.database.sql.executeSql(
      "update preloads set expires_at = now() - interval '1 minute' where organization_id = $1",
      [organization.id],
    );
    expect(await t.services.sweeper.expirePreloads()).toBe(1);
    const expired = await usage(owner.token, organization.id);
    expect([expired.pending_uploads, expired.pending_space]).toEqual([0, 0]);
  });

  it("counts preloads against the build limit", async () => {
    const { organization, owner } = await createOrganization(t);
    await setLimits(t, organization.id, { buildLimit: 2 });
    expect((await preload(t, owner.token, { organization: organization.id }, apk())).statusCode).toBe(200);
    expect((await preload(t, owner.token, { organization: organization.id }, apk())).statusCode).toBe(200);
    const third = await preload(t, owner.token, { organization: organization.id }, apk());
    expect(third.json().error_code).toBe(7);
    expect((await usage(owner.token, organization.id)).critical).toBe(true);
  });

  it("caps the uploads one person keeps waiting", async () => {
    const { organization, owner } = await createOrganization(t);
    for (let index = 0; index < 3; index += 1) {
      expect((await preload(t, owner.token, { organization: organization.id }, apk())).statusCode).toBe(200);
    }
    const refused = await preload(t, owner.token, { organization: organization.id }, apk());
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error_code).toBe("pending_uploads_limit");
    // Another person of the organization still has their own allowance.
    const admin = await addMember(t, organization.id, 2);
    expect((await preload(t, admin.token, { organization: organization.id }, apk())).statusCode).toBe(200);
  });

  it("lets nobody discard someone else's upload", async () => {
    const { organization, owner } = await createOrganization(t);
    const loaded = await preload(t, owner.token, { organization: organization.id }, apk());
    const admin = await addMember(t, organization.id, 2);
    const response = await t.app.inject({
      method: "DELETE",
      url: `/api/preloads/${loaded.json().preload_path}/`,
      headers: authHeader(admin.token),
    });
    expect(response.statusCode).toBe(404);
  });
});
