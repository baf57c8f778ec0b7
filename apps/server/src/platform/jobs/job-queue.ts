import { setTimeout as delay, setImmediate } from "node:timers/promises";
import { type SQL, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { z } from "zod";
import type { Database, SqlExecutor } from "../db/client.ts";
import { activeTracing } from "../telemetry/tracing.ts";
import { workContext } from "../work-context.ts";
import type { JobDefinition } from "./define-job.ts";

export interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Payload fields that follow a job from where it was queued (not part of any job's schema): the
 * id of the request it was queued in, and with tracing the W3C traceparent of the span it was
 * queued in, so its run joins that trace.
 */
const requestIdField = "$request_id";
const traceparentField = "$traceparent";

/** A job's payload as its schema knows it, and what it carries from where it was queued. */
function withoutCarriedFields(data: unknown): { data: unknown; requestId?: string; traceparent?: string } {
  if (data === null || typeof data !== "object" || !(requestIdField in data || traceparentField in data)) {
    return { data };
  }
  const {
    [requestIdField]: requestId,
    [traceparentField]: traceparent,
    ...rest
  } = data as Record<string, unknown>;
  return {
    data: rest,
    ...(typeof requestId === "string" ? { requestId } : {}),
    ...(typeof traceparent === "string" ? { traceparent } : {}),
  };
}

/** The fields a job queued now carries (see withoutCarriedFields). */
function carriedFields(): Record<string, string> | null {
  const requestId = workContext.getStore()?.requestId;
  const traceparent = activeTracing()?.traceparent();
  if (!requestId && !traceparent) return null;
  return {
    ...(requestId ? { [requestIdField]: requestId } : {}),
    ...(traceparent ? { [traceparentField]: traceparent } : {}),
  };
}

/** Drivers differ on plain objects; pg-boss means JSON by them, so send JSON text. */
function toParam(value: unknown): unknown {
  const plainObject =
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value);
  return plainObject ? JSON.stringify(value) : value;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Turns "$1"-style SQL text and values into a drizzle query, so pg-boss can write inside our transaction. */
function toDrizzleSql(text: string, values: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = parts.map((part, index) =>
    index % 2 === 0 ? sql.raw(part) : sql`${sql.param(toParam(values[Number(part) - 1]))}`,
  );
  return sql.join(chunks);
}

function executorFor(tx: Database): SqlExecutor {
  return {
    async executeSql(text, values) {
      const result = (await tx.execute(toDrizzleSql(text, values))) as unknown as {
        rows: Record<string, unknown>[];
      };
      return { rows: result.rows };
    },
  };
}

/**
 * The typed face of pg-boss. Definitions are registered once; `send` validates the payload and
 * can join the caller's transaction so the job exists exactly when the change that caused it does.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition>();
  private started = false;
  /** Batches of jobs this process is running, which stopping waits for. */
  private readonly running = new Set<Promise<unknown>>();
  /** pg-boss's statements under way; a fetch among them may still hand over jobs (see stop). */
  private statementsUnderWay = 0;

  /** `onFailure` hears of each failed attempt, by job name (the metrics count them). */
  constructor(
    executor: SqlExecutor,
    private readonly logger: Logger,
    private readonly onFailure: (name: string) => void = () => undefined,
  ) {
    const counted: SqlExecutor = {
      executeSql: async (text, values) => {
        this.statementsUnderWay += 1;
        try {
          return await executor.executeSql(text, values);
        } finally {
          this.statementsUnderWay -= 1;
        }
      },
    };
    this.boss = new PgBoss({ db: counted, schema: "pgboss", supervise: true, schedule: true });
    this.boss.on("error", (error) => this.logger.error({ err: error }, "job queue error"));
  }

  register(definitions: JobDefinition[]): void {
    for (const definition of definitions) {
      if (this.definitions.has(definition.name)) throw new Error(`job ${definition.name} registered twice`);
      this.definitions.set(definition.name, definition);
    }
  }

  /** Creates pg-boss's schema (once) and the queues; needed before sending. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    const existing = new Set((await this.boss.getQueues()).map((queue) => queue.name));
    for (const definition of this.definitions.values()) {
      // Updating an existing queue keeps retry settings in step with the code after a deploy.
      const save = existing.has(definition.name)
        ? this.boss.updateQueue.bind(this.boss)
        : this.boss.createQueue.bind(this.boss);
      await save(definition.name, {
        name: definition.name,
        retryLimit: definition.retry.limit,
        retryDelay: definition.retry.delaySeconds,
        retryBackoff: definition.retry.backoff,
        expireInSeconds: definition.timeoutSeconds,
      });
    }
    this.started = true;
  }

  /** Starts polling every registered queue in this process (the worker role). */
  async work(options: { pollingIntervalSeconds?: number } = {}): Promise<void> {
    for (const definition of this.definitions.values()) {
      await this.boss.work<unknown>(
        definition.name,
        {
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          batchSize: definition.batchSize,
          includeMetadata: true,
        },
        (jobs) =>
          this.tracked(
            // Each job of a batch succeeds or fails on its own: a failed one is failed here (and
            // retried by pg-boss); the completion pg-boss then applies touches only active jobs.
            Promise.all(
              jobs.map(async (job) => {
                const { data, requestId, traceparent } = withoutCarriedFields(job.data);
                const context = { job: definition.name, ...(requestId ? { requestId } : {}) };
                /** One attempt; resolves to the error it failed with, once the failure is recorded. */
                const attempt = async (): Promise<unknown> => {
                  try {
                    await workContext.run(context, () => {
                      const payload = definition.schema.parse(data);
                      return definition.handler(payload, { jobId: job.id, retryCount: job.retryCount });
                    });
                    return undefined;
                  } catch (error) {
                    this.logger.error(
                      { err: error, job: definition.name, request_id: requestId },
                      "job failed",
                    );
                    this.onFailure(definition.name);
                    await this.boss.fail(definition.name, job.id, { message: errorMessage(error) });
                    return error;
                  }
                };
                const tracing = activeTracing();
                const run = { queue: definition.name, id: job.id, retryCount: job.retryCount };
                await (tracing ? tracing.runJob({ ...run, traceparent }, attempt) : attempt());
              }),
            ),
          ),
      );
    }
  }

  /** Keeps `batch` among the running ones until it settles (see stop). */
  private async tracked<T>(batch: Promise<T>): Promise<T> {
    this.running.add(batch);
    try {
      return await batch;
    } finally {
      this.running.delete(batch);
    }
  }

  async send<Schema extends z.ZodType>(
    definition: JobDefinition<Schema>,
    payload: z.input<Schema>,
    options: { tx?: Database; startAfterSeconds?: number; singletonKey?: string; priority?: number } = {},
  ): Promise<string | null> {
    if (!this.definitions.has(definition.name)) throw new Error(`job ${definition.name} is not registered`);
    const data = definition.schema.parse(payload) as object;
    // The request (or the job) this one comes from follows it, for the logs and traces that tie them together.
    const carried = carriedFields();
    return this.boss.send(definition.name, carried ? { ...data, ...carried } : data, {
      ...(options.tx ? { db: executorFor(options.tx) } : {}),
      // An absolute time, not seconds: inside a transaction every "$n" of pg-boss's insert becomes
      // its own parameter, and a bare number then fails the timestamp cast of the other branch.
      ...(options.startAfterSeconds
        ? { startAfter: new Date(Date.now() + options.startAfterSeconds * 1000) }
        : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      // Workers take higher priorities first.
      ...(options.priority ? { priority: options.priority } : {}),
    });
  }

  async schedule(definition: JobDefinition, cron: string, payload: object = {}): Promise<void> {
    await this.boss.schedule(definition.name, cron, payload, { tz: "UTC" });
  }

  /** Job state as pg-boss keeps it, for tests and task-status endpoints. */
  async getJob(name: string, id: string) {
    return this.boss.getJobById(name, id);
  }

  /**
   * Stops taking jobs and gives those running up to twice `timeoutMs` to end. pg-boss stops
   * waiting at its timeout (at least a second) and fails what still runs, while a handler still
   * running would then meet a closed database: so the batches still running get as long again.
   *
   * pg-boss also counts as running only the jobs a worker holds: a fetch still under way when it
   * stops hands its jobs over afterwards, and its completion and failure writes are not awaited.
   * So the wait lasts until no pg-boss statement is under way and no batch runs, with a turn of
   * the event loop between for a fetched batch to start; otherwise those would meet a closed pool.
   */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    await this.boss.stop({ graceful: true, close: false, wait: true, timeout: timeoutMs });
    this.started = false;
    const deadline = Date.now() + timeoutMs;
    do {
      // An unreferenced timer: one left behind by a batch that ended first holds nothing open.
      const waitMs = this.running.size > 0 ? deadline - Date.now() : 10;
      await Promise.race([Promise.allSettled([...this.running]), delay(waitMs, undefined, { ref: false })]);
      await setImmediate();
    } while ((this.running.size > 0 || this.statementsUnderWay > 0) && Date.now() < deadline);
  }
}
