import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineJob } from "../src/platform/jobs/define-job.ts";
import { authHeader, createUserWithToken } from "./helpers/factories.ts";
import { createTestApp, type TestApp } from "./helpers/test-app.ts";
import { waitFor } from "./helpers/wait-for.ts";

interface OutboxPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: Record<string, unknown>[];
}

describe("defineJob", () => {
  it("requires module.action names", () => {
    const handler = async () => undefined;
    expect(() => defineJob({ name: "nodot", schema: z.object({}), handler })).toThrow(/module\.action/);
    expect(defineJob({ name: "build.inspect", schema: z.object({}), handler }).retry).toEqual({
      limit: 3,
      delaySeconds: 10,
      backoff: true,
    });
  });
});

describe("jobs and the dev outbox", () => {
  let t: TestApp;
  let adminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
    adminToken = (await createUserWithToken(t, { email: "admin@tarmac.test" })).token;
    memberToken = (await createUserWithToken(t)).token;
  }, 60_000);
  afterAll(() => t.close());

  const countJobs = async (name: string) => {
    const { rows } = await t.database.sql.executeSql(
      "select count(*)::int as n from pgboss.job where name = $1",
      [name],
    );
    return Number(rows[0]?.n);
  };

  it("validates a payload before it is queued", async () => {
    await expect(
      t.platform.jobs.send(t.platform.mail.jobs.send, { to: "not-an-email", subject: "s", text: "" }),
    ).rejects.toThrow();
  });

  it("queues a job inside the caller's transaction, and not at all when it rolls back", async () => {
    const before = await countJobs("mail.send");
    await expect(
      t.database.db.transaction(async (tx) => {
        await t.platform.jobs.send(
          t.platform.mail.jobs.send,
          { to: "a@example.test", subject: "rolled back", text: "x" },
          { tx },
        );
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await countJobs("mail.send")).toBe(before);
    await t.database.db.transaction(async (tx) => {
      await t.platform.jobs.send(
        t.platform.mail.jobs.send,
        { to: "tx@example.test", subject: "committed", text: "x" },
        { tx },
      );
    });
    expect(await countJobs("mail.send")).toBe(before + 1);
    const delivered = await waitFor<OutboxPage>(async () => {
      const page = await t.app.inject({
        url: "/api/admin/outbox/?to=tx@example.test",
        headers: authHeader(adminToken),
      });
      return page.json().count === 1 ? page.json() : undefined;
    });
    expect(delivered.results[0]).toMatchObject({ to: "tx@example.test", subject: "committed" });
  });

  it("delivers the admin test message to the outbox through the worker", async () => {
    const queued = await t.app.inject({
      method: "POST",
      url: "/api/admin/mail-test/",
      headers: authHeader(adminToken),
      payload: { to: "ops@example.test" },
    });
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toMatchObject({ delivery: "outbox", task_id: expect.any(String) });
    const page = await waitFor<OutboxPage>(async () => {
      const response = await t.app.inject({
        url: "/api/admin/outbox/?to=ops@example.test",
        headers: authHeader(adminToken),
      });
      return response.json().count === 1 ? response.json() : undefined;
    });
    expect(page).toMatchObject({ count: 1, next: null, previous: null });
    expect(page.results[0]).toMatchObject({
      to: "ops@example.test",
      subject: "Tarmac test message",
      text: expect.stringContaining("This message confirms that Tarmac can deliver mail"),
      html: expect.stringContaining("This message confirms that Tarmac can deliver mail"),
    });
  });

  it("carries the id of the request that queued a mail into its job, which still delivers it", async () => {
    const requestId = `trace-${Date.now()}`;
    const queued = await t.app.inject({
      method: "POST",
      url: "/api/admin/mail-test/",
      headers: { ...authHeader(adminToken), "x-request-id": requestId },
      payload: { to: "traced@example.test" },
    });
    expect(queued.statusCode).toBe(202);
    expect(queued.headers["x-request-id"]).toBe(requestId);
    const { rows } = await t.platform.database.sql.executeSql(
      "select data->>'to' as recipient from pgboss.job where name = 'mail.send' and data->>'$request_id' = $1",
      [requestId],
    );
    expect(rows).toEqual([{ recipient: "traced@example.test" }]);
    const page = await waitFor<OutboxPage>(async () => {
      const response = await t.app.inject({
        url: "/api/admin/outbox/?to=traced@example.test",
        headers: authHeader(adminToken),
      });
      return response.json().count === 1 ? response.json() : undefined;
    });
    expect(page.results[0]).toMatchObject({ to: "traced@example.test", subject: "Tarmac test message" });
  });

  it("keeps the outbox and the test message to instance administrators", async () => {
    expect((await t.app.inject({ url: "/api/admin/outbox/" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: "/api/admin/outbox/", headers: authHeader(memberToken) })).statusCode,
    ).toBe(403);
    const post = await t.app.inject({
      method: "POST",
      url: "/api/admin/mail-test/",
      headers: authHeader(memberToken),
      payload: { to: "x@example.test" },
    });
    expect(post.statusCode).toBe(403);
  });
});

describe("SMTP delivery", () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const received: { to: string; body: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      onData(stream, session, callback) {
        let body = "";
        stream.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), body });
          callback();
        });
      },
    });
    smtp.listen(0, "127.0.0.1");
    await once(smtp.server, "listening");
    const port = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp({
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(port),
      SMTP_SECURE: "false",
      MAIL_FROM: "Tarmac <ci@tarmac.test>",
    });
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("sends through the configured server instead of the outbox", async () => {
    const admin = await createUserWithToken(t, { email: "admin@tarmac.test" });
    const queued = await t.app.inject({
      method: "POST",
      url: "/api/admin/mail-test/",
      headers: authHeader(admin.token),
      payload: { to: "dev@example.test" },
    });
    expect(queued.json().delivery).toBe("smtp");
    const message = await waitFor(async () => received.find((m) => m.to === "dev@example.test"));
    expect(message.body).toContain("Subject: Tarmac test message");
    expect(message.body).toContain("From: Tarmac <ci@tarmac.test>");
    const outbox = await t.app.inject({ url: "/api/admin/outbox/", headers: authHeader(admin.token) });
    expect(outbox.json().count).toBe(0);
  });
});
