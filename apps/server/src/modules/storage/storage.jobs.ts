import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { StorageMoveService } from "./storage-move.service.ts";

export function createStorageJobs(deps: { moves: StorageMoveService }) {
  return {
    move: defineJob({
      name: "storage.move",
      schema: z.object({ moveId: z.number().int().positive() }),
      // A move copies whole catalogs; a run cut off by a deploy is retried and skips what moved.
      retry: { limit: 5, delaySeconds: 60, backoff: true },
      timeoutSeconds: 12 * 3600,
      handler: ({ moveId }) => deps.moves.run(moveId),
    }),
  };
}

export type StorageJobs = ReturnType<typeof createStorageJobs>;
