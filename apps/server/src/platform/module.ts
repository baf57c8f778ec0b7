import type { FastifyInstance } from "fastify";
import type { JobDefinition } from "./jobs/define-job.ts";
import type { PersonalDataSection } from "./personal-data.ts";

/** A job a worker runs on a timetable (cron, UTC); `atWorkerStart` also runs it once when a worker starts. */
export interface Schedule {
  job: JobDefinition;
  cron: string;
  atWorkerStart?: boolean;
}

/**
 * What a domain module hands to the process: its services (for the modules built after it),
 * its routes (web role), its job definitions (registered in every process, since web processes
 * queue jobs too; handled by the worker role), its schedules (worker role) and what it stores
 * about a person (sections of the personal data export).
 */
export interface AppModule<Services extends object = object> {
  services: Services;
  routes?: (app: FastifyInstance) => void | Promise<void>;
  jobs?: JobDefinition[];
  schedules?: Schedule[];
  personalData?: PersonalDataSection[];
}
