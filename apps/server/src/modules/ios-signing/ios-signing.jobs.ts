import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { IosResignWorker } from "./ios-resign.worker.ts";

export function createIosSigningJobs(worker: () => IosResignWorker) {
  return {
    resign: defineJob({
      name: "build.resign-ios",
      schema: z.object({ taskId: z.string().min(1).max(100) }),
      // The worker records its own outcome; a retry only covers a crash mid-run.
      retry: { limit: 1, delaySeconds: 30, backoff: false },
      timeoutSeconds: 30 * 60,
      handler: async ({ taskId }) => {
        await worker().run(taskId);
      },
    }),
  };
}
