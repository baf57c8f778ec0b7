/**
 * Updraft's documented REST requests, sent as documented (docs.getupdraft.com: "Rest API",
 * "Distribution group and Permission group API", "Exchange already uploaded app version"), with
 * the `Authorization: Token …` header.
 */
import { createHash } from "node:crypto";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithPassword, strongPassword } from "../accounts/helpers.ts";
import { dmg, multipart, uploadNewApp } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: "POST", url, payload, headers: token ? authHeader(token) : {} });

describe("Updraft's REST requests", () => {
  it("gets a token with {username, password}, and with a 2FA code in token", async () => {
    const person = await createUserWithPassword(t);
    const login = await post("/api/user/login/", { username: person.email, password: strongPassword });
    expect(login.statusCode).toBe(200);
    const { token } = login.json();
    expect(token).toEqual(expect.any(String));

    const key = (await t.app.inject({ url: "/api/user/get-2fa-key/", headers: authHeader(token) })).json();
    const enable = await post(
      "/api/user/check-2fa-token/",
      { token: await generate({ secret: key.secret }) },
      token,
    );
    const [recovery] = enable.json().recovery_codes as string[];
    expect(
      (await post("/api/user/login/", { username: person.email, password: strongPassword })).json(),
    ).toEqual({ two_factor_required: true });
    const second = await post("/api/user/login/", {
      username: person.email,
      password: strongPassword,
      token: recovery,
    });
    expect(second.json()).toEqual({ token: expect.any(String) });
    expect((await post("/api/user/login/", { password: strongPassword })).json()).toEqual({
      email: ["This field is required."],
    });
  });

  it("lists apps by ?title=&org= and reads profiles with the Token header", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("2.0.0"));
    const list = await t.app.inject({
      url: `/api/applications/?title=&org=${organization.id}`,
      headers: { authorization: `Token ${owner.token}` },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((row: { id: number }) => row.id)).toEqual([app.id]);
    const profiles = await t.app.inject({ url: "/api/profiles/", headers: authHeader(owner.token) });
    expect(profiles.statusCode).toBe(200);
  });

  it("creates a distribution group and adds a tester to it with app null", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("2.1.0"));
    const group = await post("/api/group-testers/", { app: app.id, title: "QA" }, owner.token);
    expect(group.statusCode).toBe(201);
    expect(group.json()).toMatchObject({ title: "QA", app: app.id, testers_count: 0, testers: [] });
    const tester = await post(
      "/api/testers/",
      { email: "tess@example.test", app: null, groups: [group.json().id] },
      owner.token,
    );
    expect(tester.statusCode).toBe(201);
    expect(tester.json()).toMatchObject({
      email: "tess@example.test",
      app: app.id,
      groups: [group.json().id],
    });
    const groups = await t.app.inject({
      url: `/api/group-testers/?app=${app.id}`,
      headers: authHeader(owner.token),
    });
    expect(groups.json()).toMatchObject({
      count: 1,
      next: null,
      previous: null,
      results: [{ id: group.json().id, testers_count: 1, testers: [tester.json().id] }],
    });
    // Without app and groups there is nothing to add the tester to.
    expect((await post("/api/testers/", { email: "x@example.test", app: null }, owner.token)).json()).toEqual(
      {
        app: ["This field is required."],
      },
    );
    // Another organization's group is not a way in.
    const stranger = await createOrganization(t);
    const foreign = await post(
      "/api/testers/",
      { email: "y@example.test", app: null, groups: [group.json().id] },
      stranger.owner.token,
    );
    expect(foreign.statusCode).toBe(404);
  });

  it("exchanges a build in two steps: preload with ?app= and the part app, then PUT the version", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("3.0.0"));
    const versionId = (app.current_version as { id: number }).id;
    const replacement = dmg("3.0.0", "app");
    replacement.content = Buffer.concat([replacement.content, Buffer.from("rebuilt")]);
    const body = multipart({}, replacement);
    const preload = await t.app.inject({
      method: "POST",
      url: `/api/applicationadd/?preload=1&app=${app.id}`,
      payload: body.payload,
      headers: { ...body.headers, ...authHeader(owner.token) },
    });
    expect(preload.statusCode).toBe(200);
    expect(preload.json()).toMatchObject({
      title: app.title,
      version: "3.0.0",
      build_version_number: "300",
      version_exist: true,
      preload_path: expect.any(String),
    });
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/versions/${versionId}/`,
      payload: { preload_path: preload.json().preload_path, comment: "" },
      headers: authHeader(owner.token),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      id: versionId,
      sha256: createHash("sha256").update(replacement.content).digest("hex"),
    });
    const log = await t.app.inject({ url: `/api/app-logs/${app.id}/`, headers: authHeader(owner.token) });
    expect(JSON.stringify(log.json())).toContain("exchange");
  });

  it("words validation errors as DRF does", async () => {
    const { owner } = await createOrganization(t);
    expect((await post("/api/group-testers/", { app: "seven" }, owner.token)).json()).toEqual({
      app: ["A valid integer is required."],
      title: ["This field is required."],
    });
    expect(
      (await post("/api/testers/", { email: "not-an-address", app: null, groups: "1" }, owner.token)).json(),
    ).toEqual({
      email: ["Enter a valid e-mail address."],
      groups: ['Expected a list of items but got type "str".'],
    });
  });

  it("leaves org out when the caller belongs to one organization, or names it by subdomain", async () => {
    const { organization, owner } = await createOrganization(t);
    const usage = await t.app.inject({ url: "/api/organization/usage/", headers: authHeader(owner.token) });
    expect(usage.statusCode).toBe(200);
    const staff = await t.app.inject({ url: "/api/usersinorgs/", headers: authHeader(owner.token) });
    expect(staff.json().count).toBe(1);
    // In two organizations, the caller names one (by id or subdomain) or is asked to.
    const second = await createOrganization(t);
    await addMember(t, second.organization.id, 2, owner);
    expect(
      (await t.app.inject({ url: "/api/usersinorgs/", headers: authHeader(owner.token) })).json(),
    ).toEqual({ org: ["This field is required."] });
    const bySubdomain = await t.app.inject({
      url: `/api/organization/usage/?subdomain=${second.organization.subdomain}`,
      headers: authHeader(owner.token),
    });
    expect(bySubdomain.statusCode).toBe(200);
    const stranger = await createOrganization(t);
    expect(
      (
        await t.app.inject({
          url: `/api/organization/usage/?subdomain=${stranger.organization.subdomain}`,
          headers: authHeader(owner.token),
        })
      ).statusCode,
    ).toBe(404);
    expect(organization.id).toBeGreaterThan(0);
  });
});
