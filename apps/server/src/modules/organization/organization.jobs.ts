import { z } from "zod";
import type { Database } from "../../platform/db/client.ts";
import { defineJob } from "../../platform/jobs/define-job.ts";
import type { RoutedStorage } from "../../platform/storage/routed-storage.ts";
import type { InvitationService } from "./invitation.service.ts";
import { organizationStoragePrefix } from "./logo.ts";
import { deleteOrganizationRow } from "./organization.repo.ts";

/**
 * Deletion runs in the background: stored files can be many and slow to remove. Files go
 * first, the row last, so a retried run still finds what is left; every step is idempotent.
 */
export function createOrganizationJobs(deps: {
  db: Database;
  storage: RoutedStorage;
  invitations: InvitationService;
}) {
  return {
    // Expired invitations are already ignored everywhere; this only keeps the table small.
    expireInvitations: defineJob({
      name: "organization.expire-invitations",
      schema: z.object({}),
      retry: { limit: 0 },
      handler: () => deps.invitations.deleteExpired(),
    }),
    delete: defineJob({
      name: "organization.delete",
      schema: z.object({ organizationId: z.number().int().positive() }),
      retry: { limit: 5, delaySeconds: 60, backoff: true },
      timeoutSeconds: 3600,
      handler: async ({ organizationId }) => {
        // The instance's storage and every bucket the organization has used.
        for (const root of await deps.storage.roots(organizationId)) {
          for await (const object of deps.storage.list(root + organizationStoragePrefix(organizationId))) {
            await deps.storage.delete(object.key);
          }
        }
        await deleteOrganizationRow(deps.db, organizationId);
      },
    }),
  };
}

export type OrganizationJobs = ReturnType<typeof createOrganizationJobs>;
