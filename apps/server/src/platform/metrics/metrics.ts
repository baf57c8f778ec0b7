import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { DatabaseHandle } from "../db/client.ts";

/** What the scrape-time gauges read: the job queue's table, and the database pool when there is one. */
export type MetricsSources = Pick<DatabaseHandle, "sql" | "poolUse">;

interface QueueDepth {
  name: string;
  queued: number;
  oldest: number;
}

/** Jobs waiting in each queue, and how long the oldest one due has waited (pg-boss's own table). */
const queueDepthSql = `
  select name,
         count(*)::int as queued,
         coalesce(extract(epoch from now() - min(created_on) filter (where start_after <= now())), 0)::float8 as oldest
    from pgboss.job
   where state in ('created', 'retry')
   group by name`;

/**
 * What this process tells Prometheus. One registry per process (tests open several platforms
 * in one process, so nothing goes to prom-client's global registry). Counters are bumped where
 * things happen; the queue and pool gauges are read when Prometheus scrapes.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: "tarmac_http_requests_total",
    help: "HTTP requests answered, by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: "tarmac_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [this.registry],
  });

  readonly uploadsInFlight = new Gauge({
    name: "tarmac_uploads_in_flight",
    help: "Build uploads being received now",
    registers: [this.registry],
  });

  /** Each upload under way, as a function that counts the bytes it received since last asked. */
  private readonly uploadsUnderWay = new Set<() => void>();

  readonly uploadBytes = new Counter({
    name: "tarmac_upload_received_bytes_total",
    help: "Bytes received by build uploads, counted while they arrive",
    registers: [this.registry],
    collect: () => {
      for (const count of this.uploadsUnderWay) count();
    },
  });

  readonly jobFailures = new Counter({
    name: "tarmac_job_failures_total",
    help: "Jobs whose handler failed (each failed attempt), by queue",
    labelNames: ["queue"] as const,
    registers: [this.registry],
  });

  readonly storageErrors = new Counter({
    name: "tarmac_storage_errors_total",
    help: "Storage operations that failed, by operation",
    labelNames: ["operation"] as const,
    registers: [this.registry],
  });

  readonly mailErrors = new Counter({
    name: "tarmac_mail_errors_total",
    help: "Mails a mail server refused or could not be reached for (each attempt)",
    registers: [this.registry],
  });

  /** Set before each scrape; reading the database's queue table belongs to the scrape only. */
  private sources: MetricsSources | null = null;
  private defaultsCollected = false;

  constructor() {
    const metrics = this;
    const queueGauge = (name: string, help: string, value: (depth: QueueDepth) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ["queue"] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const depth of await metrics.queueDepths()) this.set({ queue: depth.name }, value(depth));
        },
      });
    queueGauge(
      "tarmac_jobs_queued",
      "Jobs waiting to run (new or to retry), by queue",
      (depth) => depth.queued,
    );
    queueGauge(
      "tarmac_jobs_oldest_age_seconds",
      "How long the oldest job due has waited, by queue",
      (depth) => depth.oldest,
    );
    new Gauge({
      name: "tarmac_db_pool_connections",
      help: "Connections of the database pool: total, idle, and requests waiting for one",
      labelNames: ["state"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const use = metrics.sources?.poolUse?.();
        if (!use) return;
        this.set({ state: "total" }, use.total);
        this.set({ state: "idle" }, use.idle);
        this.set({ state: "waiting" }, use.waiting);
      },
    });
  }

  /**
   * Counts an upload from now: `bytesRead` answers the bytes its connection has received so far.
   * Call the answer when the upload ends, however it ends.
   */
  startUpload(bytesRead: () => number): () => void {
    let counted = bytesRead();
    const count = () => {
      const now = bytesRead();
      if (now > counted) this.uploadBytes.inc(now - counted);
      counted = now;
    };
    this.uploadsUnderWay.add(count);
    this.uploadsInFlight.inc();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      count();
      this.uploadsUnderWay.delete(count);
      this.uploadsInFlight.dec();
    };
  }

  /** Where the scrape-time gauges read from; the process's own metrics (event-loop lag, memory) start here too. */
  observe(sources: MetricsSources): void {
    this.sources = sources;
    if (this.defaultsCollected) return;
    this.defaultsCollected = true;
    collectDefaultMetrics({ register: this.registry, prefix: "tarmac_" });
  }

  /** One read of the queue table per scrape, shared by the two gauges that need it. */
  private depthsRead: Promise<QueueDepth[]> | null = null;

  private queueDepths(): Promise<QueueDepth[]> {
    const sql = this.sources?.sql;
    if (!sql) return Promise.resolve([]);
    this.depthsRead ??= sql
      .executeSql(queueDepthSql)
      .then(({ rows }) =>
        rows.map((row) => ({
          name: String(row.name),
          queued: Number(row.queued),
          oldest: Number(row.oldest),
        })),
      )
      .finally(() => {
        // Both gauges ask in the same tick of a scrape; the next scrape reads again.
        this.depthsRead = null;
      });
    return this.depthsRead;
  }
}
