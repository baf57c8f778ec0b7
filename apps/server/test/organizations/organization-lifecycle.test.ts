import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import {
  addMember,
  createOrganization,
  createProject,
  createTeam,
  setPassword,
  waitFor,
} from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    "0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
    "hex",
  ),
]);

function multipart(fileName: string, content: Buffer, field = "logo") {
  const boundary = "----tarmac-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      "Content-Type: image/png\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

async function countRows(t: TestApp, table: string, organizationId: number): Promise<number> {
  const { rows } = await t.database.sql.executeSql(
    `select count(*)::int as n from ${table} where organization_id = $1`,
    [organizationId],
  );
  return Number(rows[0]?.n);
}

describe("logo, deletion and owner transfer", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  const patchLogo = (organizationId: number, token: string, body: ReturnType<typeof multipart>) =>
    t.app.inject({
      method: "PATCH",
      url: `/api/organizations/${organizationId}/`,
      headers: { ...authHeader(token), ...body.headers },
      payload: body.payload,
    });

  it("stores a PNG logo under the organization's prefix and serves it to members", async () => {
    const { organization, owner } = await createOrganization(t);
    const response = await patchLogo(organization.id, owner.token, multipart("logo.png", png));
    expect(response.statusCode).toBe(200);
    const logoUrl: string = response.json().logo;
    expect(logoUrl).toMatch(
      new RegExp(`^http://tarmac\\.test/api/organizations/${organization.id}/logo/\\?v=[0-9a-f]{24}$`),
    );
    const keys: string[] = [];
    for await (const object of t.platform.storage.list(`orgs/${organization.id}/`)) keys.push(object.key);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^orgs/${organization.id}/logo/[0-9a-f]{24}\\.png$`));

    const image = await t.app.inject({ url: new URL(logoUrl).pathname, headers: authHeader(owner.token) });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.rawPayload.equals(png)).toBe(true);

    const stranger = await createUserWithToken(t);
    const hidden = await t.app.inject({
      url: new URL(logoUrl).pathname,
      headers: authHeader(stranger.token),
    });
    expect(hidden.statusCode).toBe(404);
    expect((await t.app.inject({ url: new URL(logoUrl).pathname })).statusCode).toBe(401);

    // A new logo replaces the stored object rather than piling up.
    await patchLogo(organization.id, owner.token, multipart("second.png", png));
    const after: string[] = [];
    for await (const object of t.platform.storage.list(`orgs/${organization.id}/`)) after.push(object.key);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(keys[0]);
  });

  it("refuses a text file named .png, an oversized image, and non-admins", async () => {
    const { organization, owner } = await createOrganization(t);
    const text = await patchLogo(
      organization.id,
      owner.token,
      multipart("logo.png", Buffer.from("just text")),
    );
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ logo: ["Upload a PNG, JPEG or WebP image."] });
    const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
    const tooLarge = await patchLogo(organization.id, owner.token, multipart("big.png", big));
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toEqual({ logo: ["The logo must be at most 2 MB."] });
    const mobile = await addMember(t, organization.id, 3);
    expect((await patchLogo(organization.id, mobile.token, multipart("logo.png", png))).statusCode).toBe(403);
    const noLogo = await t.app.inject({
      url: `/api/organizations/${organization.id}/logo/`,
      headers: authHeader(owner.token),
    });
    expect(noLogo.statusCode).toBe(404);
    let stored = 0;
    for await (const _ of t.platform.storage.list(`orgs/${organization.id}/`)) stored += 1;
    expect(stored).toBe(0);
  });

  it("deletes an organization with everything in it after the owner confirms the password", async () => {
    const { organization, owner } = await createOrganization(t);
    await setPassword(t, owner.user.id, "correct horse battery staple");
    const admin = await addMember(t, organization.id, 2);
    await createTeam(t, organization.id, [admin.user.id]);
    await createProject(t, organization.id);
    await patchLogo(organization.id, owner.token, multipart("logo.png", png));
    const url = "/api/organization/delete/";

    const byAdmin = await t.app.inject({
      method: "POST",
      url,
      headers: authHeader(admin.token),
      payload: { organization: organization.id, password: "whatever" },
    });
    expect(byAdmin.statusCode).toBe(403);
    const wrong = await t.app.inject({
      method: "POST",
      url,
      headers: authHeader(owner.token),
      payload: { organization: organization.id, password: "wrong password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ password: ["Wrong password."] });
    const missingField = await t.app.inject({
      method: "POST",
      url,
      headers: authHeader(owner.token),
      payload: { organization: organization.id },
    });
    expect(missingField.statusCode).toBe(400);
    expect(Object.keys(missingField.json())).toEqual(["password"]);

    const accepted = await t.app.inject({
      method: "POST",
      url,
      headers: authHeader(owner.token),
      payload: { organization: organization.id, password: "correct horse battery staple" },
    });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ detail: "The organization is being deleted." });
    // Gone for members at once, before the job has run.
    const read = await t.app.inject({
      url: `/api/organizations/${organization.id}/`,
      headers: authHeader(owner.token),
    });
    expect(read.statusCode).toBe(404);

    await waitFor(async () =>
      (await countRows(t, "memberships", organization.id)) === 0 ? true : undefined,
    );
    const { rows } = await t.database.sql.executeSql(
      "select count(*)::int as n from organizations where id = $1",
      [organization.id],
    );
    expect(Number(rows[0]?.n)).toBe(0);
    expect(await countRows(t, "teams", organization.id)).toBe(0);
    expect(await countRows(t, "projects", organization.id)).toBe(0);
    let stored = 0;
    for await (const _ of t.platform.storage.list(`orgs/${organization.id}/`)) stored += 1;
    expect(stored).toBe(0);
  });

  it("takes {password} alone, as the spec sends it: the owner's only organization, else the one ?org= names", async () => {
    const url = "/api/organization/delete/";
    const { organization, owner } = await createOrganization(t);
    await setPassword(t, owner.user.id, "correct horse battery staple");
    const second = await createOrganization(t, { owner });
    const remove = (query: string) =>
      t.app.inject({
        method: "POST",
        url: `${url}${query}`,
        headers: authHeader(owner.token),
        payload: { password: "correct horse battery staple" },
      });
    // Two organizations and none named: nothing is guessed.
    expect((await remove("")).json()).toEqual({ org: ["This field is required."] });
    expect((await remove(`?org=${second.organization.id}`)).statusCode).toBe(202);
    // Now the owner has one left, which {password} alone names.
    expect((await remove("")).statusCode).toBe(202);
    for (const id of [organization.id, second.organization.id]) {
      const read = await t.app.inject({ url: `/api/organizations/${id}/`, headers: authHeader(owner.token) });
      expect(read.statusCode).toBe(404);
    }
  });

  it("transfers ownership to an active member; the old owner becomes an admin", async () => {
    const { organization, owner } = await createOrganization(t);
    const admin = await addMember(t, organization.id, 2);
    const tester = await addMember(t, organization.id, 5);
    const url = "/api/organization/owner-transfer/";
    const send = (token: string, user: number) =>
      t.app.inject({
        method: "POST",
        url,
        headers: authHeader(token),
        payload: { organization: organization.id, user },
      });

    expect((await send(admin.token, tester.user.id)).statusCode).toBe(403);
    const outsider = await createUserWithToken(t);
    const notMember = await send(owner.token, outsider.user.id);
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json()).toEqual({ user: ["This user is not a member of the organization."] });
    await t.database.sql.executeSql("update users set is_active = false where id = $1", [tester.user.id]);
    expect((await send(owner.token, tester.user.id)).json()).toEqual({
      user: ["This user has not activated the account yet."],
    });
    const done = await send(owner.token, admin.user.id);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ detail: "Ownership has been transferred." });
    const roleOf = async (token: string) =>
      (
        await t.app.inject({ url: `/api/organizations/${organization.id}/`, headers: authHeader(token) })
      ).json().role;
    expect(await roleOf(admin.token)).toBe(1);
    expect(await roleOf(owner.token)).toBe(2);
    expect((await send(owner.token, owner.user.id)).statusCode).toBe(403);
  });
});
