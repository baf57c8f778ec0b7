import { z } from "zod";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { InstallReservations } from "./install-reservations.service.ts";
import type { UdidService } from "./udid.service.ts";

export function createDistributionJobs(workers: { udid: UdidService; reservations: InstallReservations }) {
  return {
    expireReservations: defineJob({
      name: "distribution.expire-install-reservations",
      schema: z.object({}),
      handler: async () => {
        await workers.reservations.deleteExpired();
      },
    }),
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
