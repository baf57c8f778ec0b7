import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { AabConversionWorker } from "./aab-conversion.service.ts";
import type { StorageSweeper } from "./storage-sweep.service.ts";

export function createBuildJobs(workers: { sweeper: StorageSweeper; conversion: AabConversionWorker }) {
  return {
    convertAab: defineJob({
      name: "build.convert-aab",
      schema: z.object({ taskId: z.string().min(1).max(100) }),
      // The worker records its own failure (error 9); a retry only covers a crash mid-run.
      retry: { limit: 1, delaySeconds: 30, backoff: false },
      timeoutSeconds: 20 * 60,
      handler: async ({ taskId }) => {
        await workers.conversion.convert(taskId);
      },
    }),
    expirePreloads: defineJob({
      name: "build.expire-preloads",
      schema: z.object({}),
      handler: async () => {
        await workers.sweeper.expirePreloads();
      },
    }),
    sweepStorage: defineJob({
      name: "storage.sweep",
      schema: z.object({}),
      timeoutSeconds: 60 * 60,
      handler: async () => {
        await workers.sweeper.sweep();
      },
    }),
  };
}

export type BuildJobs = ReturnType<typeof createBuildJobs>;

/** Preloads live 24 h and are checked every 15 minutes; the sweep runs daily at 04:41 UTC. */
export async function scheduleBuildJobs(jobs: JobQueue, buildJobs: BuildJobs): Promise<void> {
  await jobs.schedule(buildJobs.expirePreloads, "*/15 * * * *");
  await jobs.schedule(buildJobs.sweepStorage, "41 4 * * *");
}

/** A worker starting after a crash cleans up what the crash left, without waiting for the night. */
export async function sweepAtWorkerStart(jobs: JobQueue, buildJobs: BuildJobs): Promise<void> {
  await jobs.send(buildJobs.sweepStorage, {}, { singletonKey: "storage.sweep.start" });
}
