import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { GdprExportWorker } from "./gdpr-export.service.ts";

const exportRetryLimit = 3;

export function createGdprJobs(worker: GdprExportWorker) {
  return {
    export: defineJob({
      name: "gdpr.export",
      schema: z.object({ exportId: z.number().int().positive() }),
      retry: { limit: exportRetryLimit, delaySeconds: 30, backoff: true },
      timeoutSeconds: 10 * 60,
      handler: async ({ exportId }, context) => {
        await worker.buildExport(exportId, { lastAttempt: context.retryCount >= exportRetryLimit });
      },
    }),
    cleanup: defineJob({
      name: "gdpr.cleanup",
      schema: z.object({}),
      timeoutSeconds: 30 * 60,
      handler: async () => {
        await worker.deleteExpiredExports();
      },
    }),
    deleteUserFiles: defineJob({
      name: "gdpr.delete-user-files",
      schema: z.object({ userId: z.number().int().positive() }),
      retry: { limit: 5, delaySeconds: 60, backoff: true },
      handler: async ({ userId }) => {
        await worker.deleteUserFiles(userId);
      },
    }),
  };
}

export type GdprJobs = ReturnType<typeof createGdprJobs>;
