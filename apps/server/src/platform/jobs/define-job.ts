import type { z } from "zod";

export interface JobContext {
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
}

export interface JobDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string;
  schema: Schema;
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /** Longest a single run may take before pg-boss treats it as failed. */
  timeoutSeconds: number;
  /**
   * Jobs a worker takes per fetch, run side by side. pg-boss waits its polling interval after
   * every fetch, so one at a time caps a queue at one job per interval.
   */
  batchSize: number;
  handler: (payload: z.infer<Schema>, context: JobContext) => Promise<void>;
}

/**
 * Declares a background job. Payloads are validated when sent and again when run, so a job
 * never starts on data that no longer matches its schema after a deploy.
 */
export function defineJob<Schema extends z.ZodType>(definition: {
  name: string;
  schema: Schema;
  retry?: Partial<JobDefinition["retry"]>;
  timeoutSeconds?: number;
  batchSize?: number;
  handler: JobDefinition<Schema>["handler"];
}): JobDefinition<Schema> {
  if (!/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(definition.name)) {
    throw new Error(`job name "${definition.name}" must look like "module.action"`);
  }
  return {
    name: definition.name,
    schema: definition.schema,
    retry: { limit: 3, delaySeconds: 10, backoff: true, ...definition.retry },
    timeoutSeconds: definition.timeoutSeconds ?? 15 * 60,
    batchSize: definition.batchSize ?? 1,
    handler: definition.handler,
  };
}
