import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type AppServices, buildApp, createServices } from "../../src/app.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import type { DatabaseHandle } from "../../src/platform/db/client.ts";
import { closePlatform, openPlatform, type Platform } from "../../src/platform/platform.ts";
import { quietLogger } from "./quiet-logger.ts";
import { createTestDatabase } from "./test-database.ts";

export interface TestApp {
  app: FastifyInstance;
  platform: Platform;
  services: AppServices;
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/** The real app on a fresh migrated database and a temporary data directory. */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
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
  const database = await createTestDatabase();
  const platform = await openPlatform(config, quietLogger, database);
  const services = createServices(platform);
  await platform.jobs.start();
  const app = await buildApp(platform, services, quietLogger);
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    platform,
    services,
    config,
    database,
    async close() {
      await app.close();
      await closePlatform(platform, 1000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
