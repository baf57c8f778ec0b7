import { pino } from "pino";
import { expect, it } from "vitest";
import { z } from "zod";
import type { SqlExecutor } from "../../src/platform/db/client.ts";
import { defineJob } from "../../src/platform/jobs/define-job.ts";
import { JobQueue } from "../../src/platform/jobs/job-queue.ts";
import { createTestDatabase } from "../helpers/test-database.ts";

it("waits past pg-boss's own timeout for a job still running, which then reads the database", async () => {
  const handle = await createTestDatabase();
  const events: string[] = [];
  let started: () => void = () => undefined;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const slow = defineJob({
    name: "test.slow",
    schema: z.object({}),
    handler: async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 1600));
      // The database is still open: the stop waited for this job.
      const { rows } = await handle.sql.executeSql("select 41 + $1::int as answer", [1]);
      events.push(`job ended with ${rows[0]?.answer}`);
    },
  });
  const queue = new JobQueue(handle.sql, pino({ level: "silent" }));
  try {
    queue.register([slow]);
    await queue.start();
    await queue.send(slow, {});
    await queue.work({ pollingIntervalSeconds: 0.5 });
    await running;
    // pg-boss gives running jobs a second (its least), then stops waiting; the queue waits up to
    // as long again.
    await queue.stop(1000);
    events.push("stopped");
    expect(events).toEqual(["job ended with 42", "stopped"]);
  } finally {
    await handle.close();
  }
});

it("runs and records the batch of a fetch still under way when the queue stopped", async () => {
  const handle = await createTestDatabase();
  const events: string[] = [];
  let holding = false;
  let fetchHeld: () => void = () => undefined;
  const heldFetch = new Promise<void>((resolve) => {
    fetchHeld = resolve;
  });
  let releaseFetch: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    releaseFetch = resolve;
  });
  // Holds the first fetch of jobs sent after `holding` is set, as a slow database would.
  const gated: SqlExecutor = {
    async executeSql(text, values) {
      if (holding && /skip locked/i.test(text)) {
        holding = false;
        fetchHeld();
        await released;
      }
      return handle.sql.executeSql(text, values);
    },
  };
  const late = defineJob({
    name: "test.late",
    schema: z.object({}),
    handler: async () => {
      const { rows } = await handle.sql.executeSql("select 41 + $1::int as answer", [1]);
      events.push(`job ran with ${rows[0]?.answer}`);
    },
  });
  const queue = new JobQueue(gated, pino({ level: "silent" }));
  try {
    queue.register([late]);
    await queue.start();
    const id = await queue.send(late, {});
    holding = true;
    await queue.work({ pollingIntervalSeconds: 0.5 });
    await heldFetch;
    const stopped = queue.stop(2000).then(() => events.push("stopped"));
    // pg-boss sees no job running and ends its own stop at once; the fetch answers after that.
    await new Promise((resolve) => setTimeout(resolve, 300));
    releaseFetch();
    await stopped;
    expect(events).toEqual(["job ran with 42", "stopped"]);
    expect((await queue.getJob(late.name, id ?? ""))?.state).toBe("completed");
  } finally {
    releaseFetch();
    await handle.close();
  }
});
