import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Logger } from "drizzle-orm/logger";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { createModules, type Modules } from "../../src/app.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import type { DatabaseHandle } from "../../src/platform/db/client.ts";
import type { JobDefinition } from "../../src/platform/jobs/define-job.ts";
import { closePlatform, openPlatform, type Platform } from "../../src/platform/platform.ts";
import { buildApp, registerJobs, scheduleJobs } from "../../src/process-roles.ts";
import { quietLogger } from "./quiet-logger.ts";
import { createTestDatabase } from "./test-database.ts";

export interface TestApp {
  app: FastifyInstance;
  platform: Platform;
  modules: Modules;
  /** Every module's services in one object (their names do not overlap). */
  services: AllServices;
  /** A registered job definition by name, to run its handler directly. */
  job(name: string): JobDefinition;
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;
type AllServices = UnionToIntersection<Modules[keyof Modules]["services"]>;

/** The real app on a fresh migrated database and a temporary data directory. */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
  logger: FastifyBaseLogger = quietLogger,
  /** Told of every statement the app's database handle runs. */
  statementLog?: Logger,
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-app-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: "http://tarmac.test",
    SECRET_KEY: "test-secret-key-test-secret-key-0123456789",
    LOG_LEVEL: "silent",
    ADMIN_EMAILS: "admin@tarmac.test",
    WEB_DIST_DIR: path.join(dataDir, "no-web-build"),
    ...env,
  });
  const database = await createTestDatabase(statementLog);
  const platform = await openPlatform(config, logger, database);
  const modules = createModules(platform);
  registerJobs(platform, modules);
  await platform.jobs.start();
  // Like `npm start` (web and worker in one process), except that jobs run only when a test asks.
  await scheduleJobs(platform, modules);
  const app = await buildApp(platform, modules, logger);
  const services = Object.assign(
    {},
    ...Object.values(modules).map((module) => module.services),
  ) as AllServices;
  const jobs = new Map(
    Object.values(modules).flatMap((module) =>
      ("jobs" in module ? module.jobs : []).map((job) => [job.name, job]),
    ),
  );
  jobs.set(platform.mail.jobs.send.name, platform.mail.jobs.send);
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    platform,
    modules,
    services,
    job(name) {
      const found = jobs.get(name);
      if (!found) throw new Error(`no job ${name}`);
      return found;
    },
    config,
    database,
    async close() {
      await app.close();
      // Jobs still running get time to end before the database closes: a job that ended after
      // it (on a slow machine) would record its outcome on a closed pool. No job running, no wait.
      await closePlatform(platform, 10_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
