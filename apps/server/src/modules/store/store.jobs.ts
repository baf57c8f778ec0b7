import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { StoreUploadWorker } from "./store-upload.worker.ts";

/** Tries of one store upload; each resumes where the one before stopped. */
export const storeUploadRetryLimit = 5;

export function createStoreJobs(worker: StoreUploadWorker) {
  return {
    upload: defineJob({
      name: "store.upload",
      schema: z.object({ taskId: z.string().uuid() }),
      retry: { limit: storeUploadRetryLimit, delaySeconds: 30, backoff: true },
      // A 4 GB build over a slow link, and Apple's processing after it.
      timeoutSeconds: 3 * 60 * 60,
      handler: async ({ taskId }, context) => {
        await worker.run(taskId, { retryCount: context.retryCount, retryLimit: storeUploadRetryLimit });
      },
    }),
  };
}
