import { Writable } from "node:stream";
import { pino } from "pino";
import { expect, it } from "vitest";
import { z } from "zod";
import { loggerOptions } from "../../src/http/logging.ts";
import { defineJob } from "../../src/platform/jobs/define-job.ts";
import { JobQueue } from "../../src/platform/jobs/job-queue.ts";
import { installTracing, type Tracing } from "../../src/platform/telemetry/tracing.ts";
import { workContext } from "../../src/platform/work-context.ts";
import { createTestDatabase } from "../helpers/test-database.ts";

it("a job's log lines name it and the request that queued it, through the jobs it queues in turn", async () => {
  const handle = await createTestDatabase();
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = pino(loggerOptions("info") as object, sink);
  const second = defineJob({
    name: "test.second",
    schema: z.object({ step: z.number() }),
    handler: async ({ step }) => logger.info({ step }, "second ran"),
  });
  const first = defineJob({
    name: "test.first",
    schema: z.object({ step: z.number() }).strict(),
    handler: async ({ step }) => {
      logger.info({ step }, "first ran");
      await queue.send(second, { step: step + 1 });
    },
  });
  const queue = new JobQueue(handle.sql, logger);
  try {
    queue.register([first, second]);
    await queue.start();
    await workContext.run({ requestId: "req-12345678" }, () => queue.send(first, { step: 1 }));
    // A job queued outside any request (a schedule, say) names only itself.
    await queue.send(second, { step: 10 });
    await queue.work({ pollingIntervalSeconds: 0.5 });
    const ran = () => lines.filter((line) => String(line.msg).endsWith(" ran"));
    for (let tries = 0; tries < 150 && ran().length < 3; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const byStep = Object.fromEntries(ran().map((line) => [line.step, line]));
    // The strict schema of the first job shows the carried id is not part of its payload.
    expect(byStep[1]).toMatchObject({ msg: "first ran", job: "test.first", request_id: "req-12345678" });
    expect(byStep[2]).toMatchObject({ msg: "second ran", job: "test.second", request_id: "req-12345678" });
    expect(byStep[10]).toMatchObject({ msg: "second ran", job: "test.second" });
    expect(byStep[10]).not.toHaveProperty("request_id");
    expect(lines.filter((line) => line.msg === "job failed")).toEqual([]);
  } finally {
    await queue.stop(1000);
    await handle.close();
  }
});

it("with tracing, a job carries the traceparent of where it was queued to its run, outside its payload", async () => {
  const handle = await createTestDatabase();
  const runs: { queue: string; traceparent?: string }[] = [];
  const queued = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  const tracing: Tracing = {
    logFields: () => undefined,
    traceparent: () => queued,
    async runJob(job, attempt) {
      runs.push({ queue: job.queue, traceparent: job.traceparent });
      return attempt();
    },
    runStatement: (_text, run) => run(),
    nameRoute: () => undefined,
    logTo: () => undefined,
    shutdown: async () => undefined,
  };
  const payloads: unknown[] = [];
  const traced = defineJob({
    name: "test.traced",
    schema: z.object({ step: z.number() }).strict(),
    handler: async (payload) => {
      payloads.push(payload);
    },
  });
  const queue = new JobQueue(handle.sql, pino({ level: "silent" }));
  installTracing(tracing);
  try {
    queue.register([traced]);
    await queue.start();
    await queue.send(traced, { step: 1 });
    await queue.work({ pollingIntervalSeconds: 0.5 });
    for (let tries = 0; tries < 150 && payloads.length === 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The strict schema parsed the payload: the carried field is not part of it.
    expect(payloads).toEqual([{ step: 1 }]);
    expect(runs).toEqual([{ queue: "test.traced", traceparent: queued }]);
  } finally {
    installTracing(null);
    await queue.stop(1000);
    await handle.close();
  }
});
