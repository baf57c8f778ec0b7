import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { AabConversionWorker } from "./aab-conversion.service.ts";
import type { StorageSweeper } from "./storage-sweep.service.ts";
import type { UploadSlots } from "./upload-slots.ts";

export function createUploadJobs(workers: {
  sweeper: StorageSweeper;
  conversion: AabConversionWorker;
  slots: UploadSlots;
}) {
  return {
    convertAab: defineJob({
      name: "build.convert-aab",
      // automatic: converted because the instance can, not because the uploader asked.
      schema: z.object({ taskId: z.string().min(1).max(100), automatic: z.boolean().optional() }),
      // The worker records its own failure (error 9); a retry only covers a crash mid-run.
      retry: { limit: 1, delaySeconds: 30, backoff: false },
      timeoutSeconds: 20 * 60,
      handler: async ({ taskId, automatic }) => {
        await workers.conversion.convert(taskId, automatic ?? false);
      },
    }),
    expirePreloads: defineJob({
      name: "build.expire-preloads",
      schema: z.object({}),
      handler: async () => {
        await workers.sweeper.expirePreloads();
        await workers.sweeper.expireResumableUploads();
        await workers.slots.deleteExpired();
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
