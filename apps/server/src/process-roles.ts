import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Modules } from "./app.ts";
import { cookieOptionsOf, registerAuth } from "./http/auth.ts";
import { closeConnectionsWhileStopping } from "./http/draining.ts";
import { registerRequestMetrics } from "./http/request-metrics.ts";
import { createHttpServer } from "./http/server.ts";
import type { AppModule } from "./platform/module.ts";
import type { Platform } from "./platform/platform.ts";

/** What a process runs for each role of ROLES, from the modules app.ts assembles. */
/** Job definitions go to every process: web processes queue jobs too. */
export function registerJobs(platform: Platform, modules: Modules): void {
  for (const module of Object.values(modules) as AppModule[]) platform.jobs.register(module.jobs ?? []);
}

/** The web role: authentication, then every module's routes in order. */
export async function buildApp(
  platform: Platform,
  modules: Modules,
  logger: FastifyBaseLogger,
): Promise<FastifyInstance> {
  const { config } = platform;
  const app = await createHttpServer(config, logger);
  registerRequestMetrics(app, platform.metrics);
  closeConnectionsWhileStopping(app, platform.lifecycle);
  registerAuth(app, {
    ...cookieOptionsOf(config),
    tokens: modules.users.services.tokens,
    adminEmails: config.ADMIN_EMAILS,
  });
  for (const module of Object.values(modules) as AppModule[]) await module.routes?.(app);
  return app;
}

/** The worker role: handle jobs, keep the timetable, and run what should run at a worker's start. */
export async function startWorker(platform: Platform, modules: Modules): Promise<void> {
  await platform.jobs.work();
  await scheduleJobs(platform, modules);
  for (const module of Object.values(modules) as AppModule[]) {
    for (const schedule of module.schedules ?? []) {
      if (schedule.atWorkerStart) {
        await platform.jobs.send(schedule.job, {}, { singletonKey: `${schedule.job.name}.start` });
      }
    }
  }
}

/** pg-boss keeps schedules in the database, so one worker setting them serves all. */
export async function scheduleJobs(platform: Platform, modules: Modules): Promise<void> {
  for (const module of Object.values(modules) as AppModule[]) {
    for (const schedule of module.schedules ?? []) await platform.jobs.schedule(schedule.job, schedule.cron);
  }
}
