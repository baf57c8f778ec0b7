import { type Logger, pino } from "pino";
import { createModules } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { loggerOptions } from "./http/logging.ts";
import { listenWhileStarting } from "./http/starting-listener.ts";
import { answerBackupRequests } from "./platform/backup/backup-requests.ts";
import { DatabaseUnavailableError } from "./platform/db/client.ts";
import { startMetricsServer } from "./platform/metrics/metrics-server.ts";
import { closePlatform, openPlatform, type Platform } from "./platform/platform.ts";
import { activeTracing } from "./platform/telemetry/tracing.ts";
import { buildApp, registerJobs, startWorker } from "./process-roles.ts";

/** Start-up failures a person can fix print one line, not a stack trace. */
function exitWithLine(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/**
 * Prometheus's listener, when METRICS_PORT is set. A port already taken is logged, not fatal:
 * the figures are for watching the service, which must not stay down for them.
 */
async function serveMetrics(platform: Platform, logger: Logger): Promise<{ close(): Promise<void> } | null> {
  const { METRICS_PORT: port, METRICS_HOST: host } = platform.config;
  if (port === 0) return null;
  platform.metrics.observe(platform.database);
  try {
    const server = await startMetricsServer(platform.metrics, { host, port });
    logger.info({ url: server.url }, "metrics listening");
    return server;
  } catch (error) {
    logger.error(
      { err: error, host, port },
      "metrics: cannot listen (METRICS_PORT, METRICS_HOST); serving without them",
    );
    return null;
  }
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) exitWithLine(error.message);
    throw error;
  }
  const logger = pino(loggerOptions(config.LOG_LEVEL) as object);
  activeTracing()?.logTo(logger);
  // Until the application listens, the port says the process is alive but not ready yet.
  const startingListener = config.ROLES.includes("web")
    ? await listenWhileStarting(config.PORT, config.HOST).catch((error: unknown) =>
        exitWithLine(`Cannot listen on ${config.HOST}:${config.PORT} (PORT, HOST): ${String(error)}`),
      )
    : null;
  const platform = await openPlatform(config, logger).catch((error: unknown) => {
    if (error instanceof DatabaseUnavailableError) exitWithLine(error.message);
    throw error;
  });
  const modules = createModules(platform);

  // Signals are handled from here on: a worker may take jobs before start-up has finished, and a
  // SIGTERM then must still stop it cleanly.
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let metricsServer: { close(): Promise<void> } | null = null;
  let stopAnsweringBackups = () => {};
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    platform.lifecycle.stopping = true;
    // Behind a proxy, SIGTERM is a rolling deploy or a scale-down: keep serving while readiness
    // says 503 and responses close their connections, until the proxy has moved traffic away.
    if (app && signal === "SIGTERM" && config.SHUTDOWN_DRAIN_MS > 0) {
      logger.info({ signal, drainMs: config.SHUTDOWN_DRAIN_MS }, "draining");
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
    }
    logger.info({ signal }, "shutting down");
    // Work the stop cuts short (a job still running when the database closes) may fail where no
    // one awaits it: the process is ending, and pg-boss retries a job whose end it never recorded.
    process.on("unhandledRejection", (reason) => logger.warn({ err: reason }, "work cut short by the stop"));
    // Whatever hangs, the process is gone within the timeout.
    setTimeout(() => {
      logger.error("shutdown timed out; exiting");
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    const budget = Math.max(500, config.SHUTDOWN_TIMEOUT_MS - 1000);
    await app?.close(); // stops accepting, lets in-flight requests finish
    await metricsServer?.close();
    stopAnsweringBackups();
    // Jobs get up to half the budget: pg-boss's wait, then as long for batches still running.
    await closePlatform(platform, Math.floor(budget / 4));
    // The spans of the last requests and jobs, within what is left of the budget.
    await activeTracing()?.shutdown(Math.floor(budget / 4));
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  try {
    registerJobs(platform, modules);
    // Several processes may start at once on a fresh database: the queue is set up by one at a time.
    await platform.database.exclusively(() => platform.jobs.start());

    // ROLES decides what this process runs: routes on web, jobs and schedules on worker.
    app = config.ROLES.includes("web") ? await buildApp(platform, modules, logger) : null;
    if (config.ROLES.includes("worker")) await startWorker(platform, modules);
    if (stopping) return;
    await startingListener?.close();
    if (app) await app.listen({ port: config.PORT, host: config.HOST });
    metricsServer = await serveMetrics(platform, logger);
    // The embedded database is this process's alone: backups of it are asked of this process.
    if (platform.database.kind === "pglite") {
      stopAnsweringBackups = answerBackupRequests(platform, (line) => logger.error(line));
    }
  } catch (error) {
    // A signal during start-up closes the database under the steps still running: their failure
    // is the stop's own doing, and the stop ends the process (cleanly) once it has closed all.
    if (stopping) return;
    throw error;
  }
  logger.info(
    { roles: config.ROLES, url: config.PUBLIC_URL, database: platform.database.kind },
    "tarmac started",
  );
}

/** Reads the config, opens the platform and starts the roles asked for (main.ts imports this once tracing runs). */
export function serve(): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `Tarmac failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
