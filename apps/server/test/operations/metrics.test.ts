import { randomBytes } from "node:crypto";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineJob } from "../../src/platform/jobs/define-job.ts";
import { JobQueue } from "../../src/platform/jobs/job-queue.ts";
import { createMailJobs } from "../../src/platform/mail/mail.jobs.ts";
import type { Mailer } from "../../src/platform/mail/mailer.ts";
import { MailRouter } from "../../src/platform/mail/organization-mailers.ts";
import { startMetricsServer } from "../../src/platform/metrics/metrics-server.ts";
import { multipart } from "../builds/upload-helpers.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { createTestDatabase } from "../helpers/test-database.ts";

let t: TestApp;
let baseUrl: string;
let metrics: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.platform.metrics.observe(t.platform.database);
  metrics = await startMetricsServer(t.platform.metrics, { host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await metrics?.close();
  await t?.close();
});

async function scrape(): Promise<string> {
  const response = await fetch(metrics.url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of the sample `name` whose labels are exactly `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    const same =
      Object.keys(found).length === Object.keys(labels).length &&
      Object.entries(labels).every(([key, value]) => found[key] === value);
    if (same) return Number(match[3]);
  }
  return undefined;
}

describe("GET /metrics", () => {
  it("counts and times answers by route pattern and status; unknown paths share one route", async () => {
    const before = await scrape();
    const health = { method: "GET", route: "/api/health/", status: "200" };
    const counted = sample(before, "tarmac_http_requests_total", health) ?? 0;
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${baseUrl}/api/health/`)).status).toBe(200);
    const missing = await fetch(`${baseUrl}/api/no-such-thing/${randomBytes(4).toString("hex")}/`);
    expect(missing.status).toBe(404);

    const after = await scrape();
    expect(sample(after, "tarmac_http_requests_total", health)).toBe(counted + 3);
    expect(sample(after, "tarmac_http_request_duration_seconds_count", health)).toBe(counted + 3);
    expect(
      sample(after, "tarmac_http_requests_total", { method: "GET", route: "unmatched", status: "404" }),
    ).toBe(1);
    // No path with an id became a series of its own.
    expect(after).not.toContain("no-such-thing");
    expect(sample(after, "tarmac_nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("shows an upload in flight and its bytes while they arrive, and none once it ended", async () => {
    const { organization, owner } = await createOrganization(t);
    const body = multipart(
      { organization: organization.id },
      { name: "big.dmg", content: randomBytes(2_000_000) },
    );
    const start = sample(await scrape(), "tarmac_upload_received_bytes_total") ?? 0;
    const upload = request(`${baseUrl}/api/applicationadd/`, {
      method: "POST",
      agent: false,
      headers: {
        ...body.headers,
        "content-length": body.payload.length,
        authorization: `Token ${owner.token}`,
      },
    });
    const answered = new Promise<number>((resolve, reject) => {
      upload.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      upload.on("error", reject);
    });
    const half = Math.floor(body.payload.length / 2);
    upload.write(body.payload.subarray(0, half));

    let during = "";
    for (let tries = 0; tries < 100; tries += 1) {
      during = await scrape();
      if ((sample(during, "tarmac_upload_received_bytes_total") ?? 0) - start >= half - 65_536) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sample(during, "tarmac_uploads_in_flight")).toBe(1);
    const receivedDuring = (sample(during, "tarmac_upload_received_bytes_total") ?? 0) - start;
    expect(receivedDuring).toBeGreaterThanOrEqual(half - 65_536);
    expect(receivedDuring).toBeLessThanOrEqual(half);

    upload.end(body.payload.subarray(half));
    // Random bytes are no disk image: the build is refused, after the whole body was received.
    expect(await answered).toBe(400);
    const after = await scrape();
    expect(sample(after, "tarmac_uploads_in_flight")).toBe(0);
    const received = (sample(after, "tarmac_upload_received_bytes_total") ?? 0) - start;
    expect(received).toBeGreaterThanOrEqual(body.payload.length - 65_536);
    expect(received).toBeLessThanOrEqual(body.payload.length);
  });

  it("reads each queue's waiting jobs and the oldest one's age, and the database pool where there is one", async () => {
    await t.platform.mail.queue({
      to: "queued@metrics.test",
      subject: "Waiting",
      title: "Waiting",
      blocks: [],
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const text = await scrape();
    expect(sample(text, "tarmac_jobs_queued", { queue: "mail.send" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "tarmac_jobs_oldest_age_seconds", { queue: "mail.send" })).toBeGreaterThanOrEqual(1);
    if (t.platform.database.kind === "postgres") {
      expect(sample(text, "tarmac_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    } else {
      expect(text).not.toContain("tarmac_db_pool_connections{");
    }
  });

  it("counts failed storage operations by operation", async () => {
    const before = sample(await scrape(), "tarmac_storage_errors_total", { operation: "read" }) ?? 0;
    await expect(t.platform.storage.read("no/such/object")).rejects.toThrow();
    expect(sample(await scrape(), "tarmac_storage_errors_total", { operation: "read" })).toBe(before + 1);
  });

  it("answers 404 to anything but GET /metrics", async () => {
    const other = await fetch(metrics.url.replace("/metrics", "/api/health/"));
    expect(other.status).toBe(404);
  });
});

describe("failures the metrics hear of", () => {
  it("a job that fails is reported by its queue's name", async () => {
    const handle = await createTestDatabase();
    const failed: string[] = [];
    const failing = defineJob({
      name: "test.failing",
      schema: z.object({}),
      retry: { limit: 0 },
      handler: async () => {
        throw new Error("broken on purpose");
      },
    });
    const queue = new JobQueue(handle.sql, pino({ level: "silent" }), (name) => failed.push(name));
    try {
      queue.register([failing]);
      await queue.start();
      await queue.send(failing, {});
      await queue.work({ pollingIntervalSeconds: 0.5 });
      for (let tries = 0; tries < 100 && failed.length === 0; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(failed).toEqual(["test.failing"]);
    } finally {
      await queue.stop(1000);
      await handle.close();
    }
  });

  it("a mail server that refuses a mail is reported, and the job still fails so it is retried", async () => {
    const refusing: Mailer = {
      mode: "smtp",
      async send() {
        throw new Error("550 mailbox unavailable");
      },
      close() {},
    };
    let errors = 0;
    const jobs = createMailJobs(new MailRouter(refusing), () => {
      errors += 1;
    });
    await expect(
      jobs.send.handler({ to: "a@metrics.test", subject: "Hi", text: "Hi" }, { jobId: "1", retryCount: 0 }),
    ).rejects.toThrow("550");
    expect(errors).toBe(1);
  });
});
