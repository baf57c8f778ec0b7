import { AsyncLocalStorage } from "node:async_hooks";

/** What the running code serves: a request, or a job (and the request that queued it, if any). */
export interface WorkContext {
  requestId?: string;
  job?: string;
}

/**
 * Carried across awaits, so a job queued deep inside a request knows that request's id without
 * every call passing it along, and the job's log lines carry it when a worker runs the job.
 */
export const workContext = new AsyncLocalStorage<WorkContext>();

/** The log fields of a job's lines: its name and the request that queued it. Requests log their own id. */
export function jobLogFields(): Record<string, string> {
  const context = workContext.getStore();
  if (!context?.job) return {};
  return context.requestId ? { job: context.job, request_id: context.requestId } : { job: context.job };
}
