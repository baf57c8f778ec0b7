import { pino } from "pino";
import { expect, it } from "vitest";
import { z } from "zod";
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
