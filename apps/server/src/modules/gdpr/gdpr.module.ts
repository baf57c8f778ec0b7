import type { Database } from "../../platform/db/client.ts";
import type { AppModule } from "../../platform/module.ts";
import { isoOrNull, type PersonalDataSection } from "../../platform/personal-data.ts";
import type { Platform } from "../../platform/platform.ts";
import type { UsersServices } from "../users/users.module.ts";
import { createGdprJobs } from "./gdpr.jobs.ts";
import { listExportHistory } from "./gdpr.repo.ts";
import { registerGdprRoutes } from "./gdpr.routes.ts";
import { GdprService } from "./gdpr.service.ts";
import { GdprExportWorker } from "./gdpr-export.service.ts";

function exportHistory(db: Database): PersonalDataSection {
  return {
    name: "data_exports",
    load: async (person) =>
      (await listExportHistory(db, person.id)).map((row) => ({
        id: row.id,
        status: row.status,
        created_at: row.createdAt.toISOString(),
        completed_at: isoOrNull(row.completedAt),
        size: row.size,
      })),
  };
}

/**
 * Personal data exports (the `data_exports` table). The document is made of the sections the
 * other modules contribute, so this module reads no one else's tables.
 */
export function createGdprModule(
  platform: Platform,
  deps: UsersServices & { sections: PersonalDataSection[] },
) {
  const { db } = platform.database;
  const sections = [...deps.sections, exportHistory(db), platform.mail.personalData];
  const gdprJobs = createGdprJobs(
    new GdprExportWorker({ db, storage: platform.storage, users: deps.users, sections }),
  );
  const gdpr = new GdprService({
    db,
    jobs: platform.jobs,
    gdprJobs,
    storage: platform.storage,
    users: deps.users,
  });
  return {
    services: { gdpr, gdprJobs },
    routes: (app) => registerGdprRoutes(app, { gdpr }),
    jobs: Object.values(gdprJobs),
    // Daily at 03:17 UTC; pg-boss keeps the schedule in the database, so any worker runs it.
    schedules: [{ job: gdprJobs.cleanup, cron: "17 3 * * *" }],
  } satisfies AppModule;
}

export type GdprServices = ReturnType<typeof createGdprModule>["services"];
