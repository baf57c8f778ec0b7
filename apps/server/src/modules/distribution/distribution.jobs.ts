import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { UdidService } from "./udid.service.ts";

export function createDistributionJobs(workers: { udid: UdidService }) {
  return {
    expireEnrollments: defineJob({
      name: "distribution.expire-udid-enrollments",
      schema: z.object({}),
      handler: async () => {
        await workers.udid.deleteExpiredEnrollments();
      },
    }),
  };
}

export type DistributionJobs = ReturnType<typeof createDistributionJobs>;

/** Expired UDID enrollments are removed hourly. */
export async function scheduleDistributionJobs(jobs: JobQueue, distributionJobs: DistributionJobs) {
  await jobs.schedule(distributionJobs.expireEnrollments, "17 * * * *");
}
