import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
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
