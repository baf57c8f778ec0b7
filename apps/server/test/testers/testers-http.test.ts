import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { as, createUserWithToken, seedTesterWorld } from "./setup.ts";

describe("testers, groups and app mails over HTTP", () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof seedTesterWorld>>;

  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTesterWorld(t);
  }, 60_000);
  afterAll(() => t.close());

  const post = (url: string, user: { token: string }, payload: object) =>
    t.app.inject({ method: "POST", url, headers: as(user), payload });
  const get = (url: string, user: { token: string }) => t.app.inject({ url, headers: as(user) });
  const del = (url: string, user: { token: string }) =>
    t.app.inject({ method: "DELETE", url, headers: as(user) });

  it("adds a tester, links the account with that address, and updates on a second add", async () => {
    const person = await createUserWithToken(t, { email: "linked.person@example.test" });
    const group = (await post("/api/group-testers/", w.owner, { app: w.app.id, title: "QA" })).json();
    const created = await post("/api/testers/", w.owner, {
      email: "Linked.Person@Example.test",
      app: w.app.id,
      groups: [group.id],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      id: expect.any(Number),
      email: "linked.person@example.test",
      first_name: "",
      last_name: "",
      app: w.app.id,
      groups: [group.id],
      user: person.user.id,
      created_at: expect.any(String),
    });
    const again = await post("/api/testers/", w.owner, {
      email: "linked.person@example.test",
      app: w.app.id,
      groups: [],
      first_name: "Lin",
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ id: created.json().id, first_name: "Lin", groups: [] });
    const list = (await get(`/api/testers/?app=${w.app.id}`, w.owner)).json();
    expect(
      list.results.filter((r: { email: string }) => r.email === "linked.person@example.test"),
    ).toHaveLength(1);
  });

  it("lists testers of an app and of one group, paged", async () => {
    const group = (await post("/api/group-testers/", w.admin, { app: w.app.id, title: "Beta" })).json();
    for (const email of ["b1@example.test", "b2@example.test"]) {
      expect(
        (await post("/api/testers/", w.admin, { email, app: w.app.id, groups: [group.id] })).statusCode,
      ).toBe(201);
    }
    await post("/api/testers/", w.admin, { email: "solo@example.test", app: w.app.id });
    const byGroup = (await get(`/api/testers/?groups=${group.id}`, w.admin)).json();
    expect(byGroup.count).toBe(2);
    expect(byGroup.results.map((r: { email: string }) => r.email)).toEqual([
      "b1@example.test",
      "b2@example.test",
    ]);
    const paged = (await get(`/api/testers/?app=${w.app.id}&page_size=1`, w.admin)).json();
    expect(paged.results).toHaveLength(1);
    expect(paged.next).toContain("page=2");
    expect((await get("/api/testers/", w.admin)).statusCode).toBe(400);
  });

  it("rejects a group of another app", async () => {
    const other = (
      await post("/api/group-testers/", w.stranger.owner, { app: w.strangerApp.id, title: "X" })
    ).json();
    const response = await post("/api/testers/", w.owner, {
      email: "x@example.test",
      app: w.app.id,
      groups: [other.id],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty("groups");
    expect((await post("/api/testers/", w.owner, { email: "nope", app: w.app.id })).statusCode).toBe(400);
  });

  it("keeps group titles unique per app and counts testers", async () => {
    const first = await post("/api/group-testers/", w.manager, { app: w.app.id, title: "Internal" });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      app: w.app.id,
      title: "Internal",
      testers_count: 0,
      testers: [],
    });
    const duplicate = await post("/api/group-testers/", w.manager, { app: w.app.id, title: "internal" });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toHaveProperty("title");
    await post("/api/testers/", w.manager, {
      email: "i1@example.test",
      app: w.app.id,
      groups: [first.json().id],
    });
    const groups = (await get(`/api/group-testers/?app=${w.app.id}`, w.manager)).json().results;
    expect(groups.find((g: { id: number }) => g.id === first.json().id)).toMatchObject({ testers_count: 1 });
  });

  it("deletes a group but keeps its testers", async () => {
    const group = (await post("/api/group-testers/", w.owner, { app: w.app.id, title: "Temp" })).json();
    const tester = (
      await post("/api/testers/", w.owner, { email: "temp@example.test", app: w.app.id, groups: [group.id] })
    ).json();
    expect((await del(`/api/group-testers/${group.id}/`, w.owner)).statusCode).toBe(204);
    const list = (await get(`/api/testers/?app=${w.app.id}&search=temp@`, w.owner)).json();
    expect(list.results).toEqual([expect.objectContaining({ id: tester.id, groups: [] })]);
    expect((await del(`/api/testers/${tester.id}/`, w.owner)).statusCode).toBe(204);
    expect((await del(`/api/testers/${tester.id}/`, w.owner)).statusCode).toBe(404);
  });

  it("shows groups with their testers", async () => {
    const group = (await post("/api/group-testers/", w.owner, { app: w.app.id, title: "Listed" })).json();
    await post("/api/testers/", w.owner, { email: "listed@example.test", app: w.app.id, groups: [group.id] });
    const response = await get(`/api/applications/${w.app.id}/users_in_groups/`, w.owner);
    expect(response.statusCode).toBe(200);
    const listed = response.json().find((g: { id: number }) => g.id === group.id);
    expect(listed).toMatchObject({
      app: w.app.id,
      title: "Listed",
      testers: [expect.objectContaining({ email: "listed@example.test", user: null })],
    });
  });

  it("saves, lists and removes app mails", async () => {
    const saved = await post("/api/app-mails/", w.owner, { email: "Team@Example.test", app: w.app.id });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ app: w.app.id, email: "team@example.test" });
    expect(
      (await post("/api/app-mails/", w.owner, { email: "team@example.test", app: w.app.id })).statusCode,
    ).toBe(400);
    const list = (await get(`/api/app-mails/?app=${w.app.id}`, w.owner)).json().results;
    expect(list.map((m: { email: string }) => m.email)).toContain("team@example.test");
    expect((await del(`/api/app-mails/${saved.json().id}/`, w.mobile)).statusCode).toBe(403);
    expect((await del(`/api/app-mails/${saved.json().id}/`, w.stranger.owner)).statusCode).toBe(404);
    expect((await del(`/api/app-mails/${saved.json().id}/`, w.owner)).statusCode).toBe(204);
  });

  it("allows admins and the project's team managers only; other organizations get 404", async () => {
    const url = `/api/testers/?app=${w.app.id}`;
    expect((await get(url, w.owner)).statusCode).toBe(200);
    expect((await get(url, w.admin)).statusCode).toBe(200);
    expect((await get(url, w.manager)).statusCode).toBe(200);
    expect((await get(url, w.mobile)).statusCode).toBe(403);
    expect((await get(url, w.outsider)).statusCode).toBe(404);
    expect((await get(url, w.stranger.owner)).statusCode).toBe(404);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    for (const path of [
      `/api/group-testers/?app=${w.app.id}`,
      `/api/app-mails/?app=${w.app.id}`,
      `/api/applications/${w.app.id}/users_in_groups/`,
    ]) {
      expect((await get(path, w.mobile)).statusCode, path).toBe(403);
      expect((await get(path, w.stranger.owner)).statusCode, path).toBe(404);
    }
    const group = (await post("/api/group-testers/", w.owner, { app: w.app.id, title: "Guarded" })).json();
    expect((await del(`/api/group-testers/${group.id}/`, w.stranger.owner)).statusCode).toBe(404);
    expect((await get(`/api/testers/?groups=${group.id}`, w.stranger.owner)).statusCode).toBe(404);
    expect(
      (await post("/api/testers/", w.mobile, { email: "m@example.test", app: w.app.id })).statusCode,
    ).toBe(403);
  });
});
