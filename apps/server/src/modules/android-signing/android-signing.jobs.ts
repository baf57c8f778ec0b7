import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";

export function createSigningJobs(workers: { run: (taskId: string) => Promise<void> }) {
  return {
    signBuild: defineJob({
      name: "android.sign-build",
      schema: z.object({ taskId: z.string().min(1).max(100) }),
      // The worker records its own failure; a retry only covers a crash mid-run.
      retry: { limit: 1, delaySeconds: 30, backoff: false },
      timeoutSeconds: 20 * 60,
      handler: async ({ taskId }) => {
        await workers.run(taskId);
      },
    }),
  };
}
