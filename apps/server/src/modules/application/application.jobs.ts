import { z } from "zod";
import type { Database } from "../../platform/db/client.ts";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { StorageDriver } from "../../platform/storage/storage-driver.ts";

export function createApplicationJobs(storage: StorageDriver) {
  return {
    // Deleting a missing file succeeds, so a retry after a partial run finishes the rest.
    deleteFiles: defineJob({
      name: "build.delete-files",
      schema: z.object({ keys: z.array(z.string().min(1)).min(1) }),
      retry: { limit: 5, delaySeconds: 60, backoff: true },
      handler: async ({ keys }) => {
        for (const key of keys) await storage.delete(key);
      },
    }),
  };
}

export type ApplicationJobs = ReturnType<typeof createApplicationJobs>;

/**
 * Removes stored build files once the transaction `tx` commits (the job is enqueued inside
 * it): rows and files disappear together, and a rolled-back deletion keeps its files.
 */
const keysPerJob = 5000;

export type FileDeletion = (keys: (string | null | undefined)[], tx: Database) => Promise<void>;

export function fileDeletion(jobs: JobQueue, appJobs: ApplicationJobs): FileDeletion {
  return async (keys, tx) => {
    const present = [...new Set(keys.filter((key): key is string => Boolean(key)))];
    // Batches keep payloads bounded (a few hundred KB) when a large project goes.
    for (let start = 0; start < present.length; start += keysPerJob) {
      await jobs.send(appJobs.deleteFiles, { keys: present.slice(start, start + keysPerJob) }, { tx });
    }
  };
}
