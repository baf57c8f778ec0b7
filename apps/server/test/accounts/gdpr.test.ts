import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GdprExportWorker } from "../../src/modules/gdpr/gdpr-export.service.ts";
import { insertUser } from "../../src/modules/users/users.repo.ts";
import type { StorageDriver } from "../../src/platform/storage/storage-driver.ts";
import { authHeader } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { addMembership, createUserWithPassword, strongPassword, uniqueEmail } from "./helpers.ts";

interface ExportItem {
  id: number;
  status: string;
  created_at: string;
  completed_at: string | null;
  size: number | null;
  download_url: string | null;
}

const dayMs = 24 * 3600 * 1000;

describe("personal data exports", () => {
  let t: TestApp;

  const signIn = async (email: string) =>
    (
      await t.app.inject({
        method: "POST",
        url: "/api/user/login/?m=1",
        payload: { email, password: strongPassword },
      })
    ).json().token as string;
  const sql = (text: string, values: unknown[] = []) => t.database.sql.executeSql(text, values);
  const listExports = async (token: string) =>
    (await t.app.inject({ url: "/api/data-gdpr/", headers: authHeader(token) })).json() as ExportItem[];
  const requestExport = (token: string) =>
    t.app.inject({ method: "POST", url: "/api/data-gdpr/", headers: authHeader(token) });
  const waitUntilSettled = (token: string, id: number) =>
    waitFor(async () => {
      const item = (await listExports(token)).find((row) => row.id === id);
      return item && item.status !== "pending" ? item : undefined;
    });
  const insertExportRow = async (userId: number, status: string, ageMs: number, storageKey?: string) => {
    const createdAt = new Date(Date.now() - ageMs);
    const { rows } = await sql(
      `insert into data_exports (user_id, status, storage_key, size, created_at, completed_at)
       values ($1, $2, $3, $4, $5, $6) returning id`,
      [
        userId,
        status,
        storageKey ?? null,
        storageKey ? 2 : null,
        createdAt,
        status === "pending" ? null : createdAt,
      ],
    );
    return { id: Number(rows[0]?.id), createdAt };
  };
  const putFile = (key: string) => t.platform.storage.put(key, Readable.from([Buffer.from("{}")]));
  const listKeys = async (prefix: string) => {
    const keys: string[] = [];
    for await (const item of t.platform.storage.list(prefix)) keys.push(item.key);
    return keys.sort();
  };
  /** A team and a project in `orgId` with the user in both; returns their ids. */
  const addTeamAndProject = async (orgId: number, userId: number, title: string) => {
    const team = await sql("insert into teams (organization_id, title) values ($1, $2) returning id", [
      orgId,
      `${title} team`,
    ]);
    const teamId = Number(team.rows[0]?.id);
    await sql("insert into team_members (team_id, user_id) values ($1, $2)", [teamId, userId]);
    const project = await sql("insert into projects (organization_id, title) values ($1, $2) returning id", [
      orgId,
      `${title} project`,
    ]);
    const projectId = Number(project.rows[0]?.id);
    await sql(
      `insert into project_members (project_id, user_id, role, is_access_all_envs, access_envs)
       values ($1, $2, 5, false, $3)`,
      [projectId, userId, ["prod"]],
    );
    return { teamId, projectId };
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  it("answers 401 without a token", async () => {
    expect((await t.app.inject({ method: "POST", url: "/api/data-gdpr/" })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/data-gdpr/" })).statusCode).toBe(401);
  });

  it("exports the user's data, none of another user's, downloadable through the signed URL", async () => {
    const alice = await createUserWithPassword(t, uniqueEmail("alice"));
    const bob = await createUserWithPassword(t, uniqueEmail("bob"));
    const token = await signIn(alice.email);
    await signIn(bob.email);
    // A failed attempt after the sign-in leaves a throttle entry for the account.
    await t.app.inject({
      method: "POST",
      url: "/api/user/login/?m=1",
      payload: { email: alice.email, password: "not-the-password" },
    });
    const acme = await addMembership(t, alice.id, 1, "Acme Export");
    await sql("insert into memberships (organization_id, user_id, role) values ($1, $2, 5)", [acme, bob.id]);
    const beta = await addMembership(t, bob.id, 1, "Beta Secret");
    const aliceOwn = await addTeamAndProject(acme, alice.id, "Acme");
    await addTeamAndProject(beta, bob.id, "Beta");
    await sql(
      "insert into recovery_codes (user_id, code_hash, used_at) select $1, 'rc-' || g, case when g = 1 then now() end from generate_series(1, 10) g",
      [alice.id],
    );
    await sql(
      "insert into mail_outbox (to_address, subject, text_body) values ($1, 'Welcome Alice', 'Hello Alice'), ($2, 'Bob only', 'Hello Bob')",
      [alice.email, bob.email],
    );

    const created = await requestExport(token);
    expect(created.statusCode).toBe(202);
    const { id } = created.json();
    expect(created.json()).toEqual({ id, status: "pending" });
    const ready = await waitUntilSettled(token, id);
    expect(ready).toEqual({
      id,
      status: "ready",
      created_at: expect.any(String),
      completed_at: expect.any(String),
      size: expect.any(Number),
      download_url: expect.stringMatching(/^http:\/\/tarmac\.test\/api\/files\/exports\//),
    });

    const url = new URL(ready.download_url as string);
    const { rows: keyRows } = await sql("select storage_key from data_exports where id = $1", [id]);
    expect(url.pathname).toBe(`/api/files/${keyRows[0]?.storage_key}`);
    expect(keyRows[0]?.storage_key).toMatch(
      new RegExp(`^exports/${alice.id}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.json$`),
    );
    const download = await t.app.inject({ url: url.pathname + url.search });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/json");
    const date = ready.created_at.slice(0, 10);
    expect(download.headers["content-disposition"]).toContain(`tarmac-data-${date}.json`);
    expect(download.rawPayload.length).toBe(ready.size);

    const document = JSON.parse(download.body);
    const { rows: tokens } = await sql(
      "select kind, created_at, last_used_at, expires_at, revoked_at, token_hash from auth_tokens where user_id = $1 order by id",
      [alice.id],
    );
    const { rows: throttle } = await sql("select * from login_throttle where key = $1", [
      `login:account:${alice.email}`,
    ]);
    const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);
    expect(document).toEqual({
      format: "tarmac-personal-data/1",
      generated_at: expect.any(String),
      profile: {
        user_id: alice.id,
        email: alice.email,
        first_name: "Pat",
        last_name: "Word",
        is_active: true,
        has_password: true,
        two_factor_enabled: false,
        welcome_closed: false,
        date_joined: alice.createdAt.toISOString(),
      },
      organizations: [
        {
          org_id: acme,
          title: "Acme Export",
          subdomain: expect.any(String),
          role: 1,
          role_name: "owner",
          joined_at: expect.any(String),
        },
      ],
      invitations: [],
      teams: [{ team_id: aliceOwn.teamId, title: "Acme team", org_id: acme, org_title: "Acme Export" }],
      projects: [
        {
          project_id: aliceOwn.projectId,
          title: "Acme project",
          org_id: acme,
          org_title: "Acme Export",
          role: 5,
          is_access_all_envs: false,
          access_envs: ["prod"],
          joined_at: expect.any(String),
        },
      ],
      tokens: tokens.map((row) => ({
        kind: row.kind,
        created_at: iso(row.created_at),
        last_used_at: iso(row.last_used_at),
        expires_at: iso(row.expires_at),
        revoked_at: iso(row.revoked_at),
      })),
      push_subscriptions: [],
      recovery_codes: { total: 10, unused: 9 },
      email_codes: [],
      login_throttle: [
        {
          key: `login:account:${alice.email}`,
          failures: 1,
          window_started_at: iso(throttle[0]?.window_started_at),
          locked_until: null,
        },
      ],
      data_exports: [{ id, status: "pending", created_at: ready.created_at, completed_at: null, size: null }],
      mail: [{ subject: "Welcome Alice", text: "Hello Alice", html: null, created_at: expect.any(String) }],
      single_sign_on: [],
      feedback: [],
    });
    expect(tokens.length).toBe(1);
    for (const secret of [bob.email, "Beta Secret", "Bob only", tokens[0]?.token_hash, alice.passwordHash]) {
      expect(download.body).not.toContain(secret);
    }
    expect(download.body).not.toContain("rc-");

    const tampered = await t.app.inject({
      url: `${url.pathname}?${url.searchParams.toString().replace("tarmac-data", "other-data")}`,
    });
    expect(tampered.statusCode).toBe(403);
    expect(await listExports(await signIn(bob.email))).toEqual([]);
  });

  it("keeps one pending export per user and lets an inactive account ask", async () => {
    const user = await insertUser(t.database.db, { email: uniqueEmail("pending"), isActive: false });
    const { token } = await t.services.tokens.issueSession(user.id);
    const pending = await insertExportRow(user.id, "pending", 60_000);
    const again = await requestExport(token);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ id: pending.id, status: "pending" });
    const { rows } = await sql("select count(*)::int as n from data_exports where user_id = $1", [user.id]);
    expect(rows[0]?.n).toBe(1);

    await sql("delete from data_exports where id = $1", [pending.id]);
    const fresh = await requestExport(token);
    expect(fresh.statusCode).toBe(202);
    expect((await waitUntilSettled(token, fresh.json().id)).status).toBe("ready");
  });

  it("allows five exports a day, then answers 429 with Retry-After", async () => {
    const user = await createUserWithPassword(t, uniqueEmail("limit"));
    const token = await signIn(user.email);
    for (const hoursAgo of [2, 3, 4, 5, 30]) await insertExportRow(user.id, "ready", hoursAgo * 3600_000);
    await insertExportRow(user.id, "failed", 6 * 3600_000);
    const refused = await requestExport(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: "At most 5 exports a day. Try again in 1080 minutes." });
    // The oldest export of the last 24 hours (6 hours ago) leaves the window in 18 hours.
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(18 * 3600 - 30);
    expect(retryAfter).toBeLessThanOrEqual(18 * 3600);
  });

  it("lists only the caller's exports, newest first, with links only when ready", async () => {
    const user = await createUserWithPassword(t, uniqueEmail("list"));
    const other = await createUserWithPassword(t, uniqueEmail("other"));
    const token = await signIn(user.email);
    const key = `exports/${user.id}/listed.json`;
    await putFile(key);
    const older = await insertExportRow(user.id, "failed", 3 * dayMs);
    const newer = await insertExportRow(user.id, "ready", dayMs, key);
    await insertExportRow(other.id, "ready", 1000, `exports/${other.id}/x.json`);
    const list = await listExports(token);
    expect(list).toEqual([
      {
        id: newer.id,
        status: "ready",
        created_at: newer.createdAt.toISOString(),
        completed_at: newer.createdAt.toISOString(),
        size: 2,
        download_url: expect.stringContaining(`/api/files/${key}?`),
      },
      {
        id: older.id,
        status: "failed",
        created_at: older.createdAt.toISOString(),
        completed_at: older.createdAt.toISOString(),
        size: null,
        download_url: null,
      },
    ]);
    const link = new URL(list[0]?.download_url as string);
    expect(link.searchParams.get("name")).toBe(
      `tarmac-data-${newer.createdAt.toISOString().slice(0, 10)}.json`,
    );
    expect(link.searchParams.get("type")).toBe("application/json");
    expect(Number(link.searchParams.get("expires")) * 1000 - Date.now()).toBeLessThanOrEqual(600_000);
  });

  it("deletes exports older than 7 days with their files, daily", async () => {
    const user = await createUserWithPassword(t, uniqueEmail("cleanup"));
    const oldKey = `exports/${user.id}/old.json`;
    const recentKey = `exports/${user.id}/recent.json`;
    await putFile(oldKey);
    await putFile(recentKey);
    const old = await insertExportRow(user.id, "ready", 8 * dayMs, oldKey);
    const oldFailed = await insertExportRow(user.id, "failed", 9 * dayMs);
    const recent = await insertExportRow(user.id, "ready", 2 * dayMs, recentKey);
    const stuck = await insertExportRow(user.id, "pending", 2 * dayMs);

    await t.services.gdprJobs.cleanup.handler({}, { jobId: "manual", retryCount: 0 });

    const { rows } = await sql(
      "select id::int as id, status from data_exports where user_id = $1 order by id",
      [user.id],
    );
    expect(rows).toEqual([
      { id: recent.id, status: "ready" },
      { id: stuck.id, status: "failed" },
    ]);
    expect(rows.map((row) => row.id)).not.toContain(old.id);
    expect(rows.map((row) => row.id)).not.toContain(oldFailed.id);
    expect(await listKeys(`exports/${user.id}/`)).toEqual([recentKey]);
    const { rows: schedules } = await sql(
      "select name, cron, timezone from pgboss.schedule where name = $1",
      ["gdpr.cleanup"],
    );
    expect(schedules).toEqual([{ name: "gdpr.cleanup", cron: "17 3 * * *", timezone: "UTC" }]);
  });

  it("marks an export failed only after its last attempt", async () => {
    const user = await createUserWithPassword(t, uniqueEmail("failing"));
    const row = await insertExportRow(user.id, "pending", 0);
    const broken: StorageDriver = Object.assign(Object.create(t.platform.storage), {
      put: async () => {
        throw new Error("disk full");
      },
    });
    const worker = new GdprExportWorker({
      db: t.database.db,
      storage: broken,
      users: t.services.users,
      sections: [],
    });
    const status = async () =>
      (await sql("select status from data_exports where id = $1", [row.id])).rows[0]?.status;
    await expect(worker.buildExport(row.id, { lastAttempt: false })).rejects.toThrow("disk full");
    expect(await status()).toBe("pending");
    await expect(worker.buildExport(row.id, { lastAttempt: true })).rejects.toThrow("disk full");
    expect(await status()).toBe("failed");
  });

  it("removes the user's export files when the account is closed", async () => {
    const user = await createUserWithPassword(t, uniqueEmail("closing"));
    const token = await signIn(user.email);
    const created = await requestExport(token);
    await waitUntilSettled(token, created.json().id);
    await putFile(`exports/${user.id}/extra.json`);
    expect((await listKeys(`exports/${user.id}/`)).length).toBe(2);
    const closed = await t.app.inject({
      method: "DELETE",
      url: "/api/profiles/0/",
      headers: authHeader(token),
      payload: { password: strongPassword },
    });
    expect(closed.statusCode).toBe(204);
    await waitFor(async () => ((await listKeys(`exports/${user.id}/`)).length === 0 ? true : undefined));
    const { rows } = await sql("select count(*)::int as n from data_exports where user_id = $1", [user.id]);
    expect(rows[0]?.n).toBe(0);
  });
});
