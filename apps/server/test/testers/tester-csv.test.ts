import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "../builds/upload-helpers.ts";
import { createApp } from "../helpers/app-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { as, seedTesterWorld } from "./setup.ts";

describe("POST /api/upload-csv-app-group/", () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof seedTesterWorld>>;

  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTesterWorld(t);
  }, 60_000);
  afterAll(() => t.close());

  async function newGroup(appId = w.app.id, title = `G${Math.random()}`) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/group-testers/",
      headers: as(w.owner),
      payload: { app: appId, title },
    });
    return response.json() as { id: number };
  }

  function upload(content: string | Buffer, fields: Record<string, number>, user = w.owner) {
    const form = multipart(fields, {
      field: "csv",
      name: "testers.csv",
      content: typeof content === "string" ? Buffer.from(content) : content,
    });
    return t.app.inject({
      method: "POST",
      url: "/api/upload-csv-app-group/",
      headers: { ...as(user), ...form.headers },
      payload: form.payload,
    });
  }

  const groupTesters = async (groupId: number) =>
    (await t.app.inject({ url: `/api/testers/?groups=${groupId}`, headers: as(w.owner) })).json().results as {
      email: string;
      first_name: string;
      last_name: string;
    }[];

  it("imports a file with a BOM, a header and `;` separators", async () => {
    const group = await newGroup();
    const csv = "\uFEFFEmail;First name;Last name\r\nann@example.test;Ann;Lee\r\nbob@example.test;Bob;\r\n";
    const response = await upload(csv, { app: w.app.id, group: group.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ created: 2, updated: 0, duplicates: [] });
    expect(await groupTesters(group.id)).toEqual([
      expect.objectContaining({ email: "ann@example.test", first_name: "Ann", last_name: "Lee" }),
      expect.objectContaining({ email: "bob@example.test", first_name: "Bob", last_name: "" }),
    ]);
  });

  it("reports repeated addresses and updates testers that exist", async () => {
    const group = await newGroup();
    await upload("carl@example.test,Carl,Old\n", { app: w.app.id, group: (await newGroup()).id });
    const csv = "carl@example.test,Carl,New\ndana@example.test,Dana,Ray\nCARL@example.test,Again,X\n";
    const response = await upload(csv, { app: w.app.id, group: group.id });
    expect(response.json()).toEqual({ created: 1, updated: 1, duplicates: [3] });
    const members = await groupTesters(group.id);
    expect(members.map((m) => m.email)).toEqual(["carl@example.test", "dana@example.test"]);
    expect(members[0]).toMatchObject({ last_name: "New" });
  });

  it("applies nothing when one line is bad", async () => {
    const group = await newGroup();
    const csv = "erin@example.test,Erin,A\nnot-an-address,B,C\nfay@example.test,Fay,D\n";
    const response = await upload(csv, { app: w.app.id, group: group.id });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ line: 2, message: expect.stringContaining("Invalid e-mail") }],
    });
    expect(await groupTesters(group.id)).toEqual([]);
    const all = (
      await t.app.inject({ url: `/api/testers/?app=${w.app.id}&search=erin`, headers: as(w.owner) })
    ).json();
    expect(all.count).toBe(0);
  });

  it("refuses an empty file, a file over 1 MB, a missing file and another app's group", async () => {
    const group = await newGroup();
    const empty = await upload("\n\n", { app: w.app.id, group: group.id });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toMatch(/no testers/);
    const big = Buffer.alloc(1024 * 1024 + 10, "a");
    const tooLarge = await upload(big, { app: w.app.id, group: group.id });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toEqual({ csv: ["The file must be at most 1 MB."] });
    const form = multipart({ app: w.app.id, group: group.id });
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/upload-csv-app-group/",
      headers: { ...as(w.owner), ...form.headers },
      payload: form.payload,
    });
    expect(missing.statusCode).toBe(400);
    const otherApp = await createApp(t, w.organization.id, { projectId: w.app.projectId, appType: 1 });
    const foreign = await newGroup(otherApp.id);
    const wrong = await upload("gus@example.test\n", { app: w.app.id, group: foreign.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toHaveProperty("group");
  });

  it("follows the tester permissions", async () => {
    const group = await newGroup();
    expect((await upload("h@example.test\n", { app: w.app.id, group: group.id }, w.manager)).statusCode).toBe(
      200,
    );
    expect((await upload("h@example.test\n", { app: w.app.id, group: group.id }, w.mobile)).statusCode).toBe(
      403,
    );
    expect(
      (await upload("h@example.test\n", { app: w.app.id, group: group.id }, w.stranger.owner)).statusCode,
    ).toBe(404);
  });
});
