import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import { createIdentityCache, type IdentityCache } from "./cache/identity-cache.ts";
import { createListCaches, type ListCaches } from "./cache/list-caches.ts";
import { type DatabaseHandle, openDatabase } from "./db/client.ts";
import { applyMigrations } from "./db/migrate.ts";
import { DomainEvents } from "./events/domain-events.ts";
import { JobQueue } from "./jobs/job-queue.ts";
import { ProcessLifecycle } from "./lifecycle.ts";
import { MailQueue } from "./mail/mail-queue.ts";
import { type Mailer, OutboxMailer, SmtpMailer } from "./mail/mailer.ts";
import { Metrics } from "./metrics/metrics.ts";
import { createStorage } from "./storage/create-storage.ts";
import type { RoutedStorage } from "./storage/routed-storage.ts";
import type { UrlSigner } from "./storage/signed-url.ts";

/** The infrastructure one process holds: database, jobs, storage, mail. Modules receive what they need from it. */
export interface Platform {
  config: Config;
  database: DatabaseHandle;
  /** Every stored file, wherever it lives (instance storage or an organization's own). */
  storage: RoutedStorage;
  signer: UrlSigner;
  mailer: Mailer;
  /** Queues mail through the `mail.send` job (in the caller's transaction when given one). */
  mail: MailQueue;
  jobs: JobQueue;
  /** Domain events for webhooks and chat, queued in the caller's transaction. */
  events: DomainEvents;
  /** Large lists (apps, staff, testers) kept per catalog or directory version. */
  lists: ListCaches;
  /** Token and membership lookups kept in the process, with the embedded database only. */
  identity?: IdentityCache;
  /** What `GET /metrics` reports (served by main when METRICS_PORT is set). */
  metrics: Metrics;
  /** Set when the process is told to stop: readiness and connections tell proxies to go elsewhere. */
  lifecycle: ProcessLifecycle;
}

export function createMailer(config: Config, database: DatabaseHandle): Mailer {
  if (!config.SMTP_HOST) return new OutboxMailer(database.db);
  return new SmtpMailer({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    user: config.SMTP_USER,
    password: config.SMTP_PASSWORD,
    from: config.MAIL_FROM,
  });
}

/** Opens the platform; `database` may be handed in (tests start from a migrated snapshot). */
export async function openPlatform(
  config: Config,
  logger: FastifyBaseLogger,
  database?: DatabaseHandle,
): Promise<Platform> {
  const handle =
    database ??
    (await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
    }));
  try {
    await handle.exclusively(() => applyMigrations(handle));
    const metrics = new Metrics();
    const { storage, signer } = await createStorage(config, (operation) =>
      metrics.storageErrors.inc({ operation }),
    );
    const jobs = new JobQueue(handle.sql, logger, (queue) => metrics.jobFailures.inc({ queue }));
    const mailer = createMailer(config, handle);
    const onSendError = () => metrics.mailErrors.inc();
    const mail = new MailQueue({ db: handle.db, queue: jobs, mailer, onSendError });
    const events = new DomainEvents({ db: handle.db, queue: jobs });
    const lists = createListCaches(handle.db);
    const identity = await createIdentityCache(handle);
    return {
      config,
      database: handle,
      storage,
      signer,
      mailer,
      mail,
      jobs,
      events,
      lists,
      identity,
      metrics,
      lifecycle: new ProcessLifecycle(),
    };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

export async function closePlatform(platform: Platform, timeoutMs: number): Promise<void> {
  await platform.jobs.stop(timeoutMs);
  platform.mail.router.close();
  await platform.database.close();
}
