import { AppError } from "../../http/errors.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";

/** A refused CI upload is retried again and again; its webhook tells of it once an hour. */
const noticeIntervalSeconds = 3600;

/** Whether an error is an upload refused for the plan's space (6) or builds (7) limit. */
function isPlanLimit(error: unknown): error is AppError {
  return error instanceof AppError && (error.errorCode === 6 || error.errorCode === 7);
}

/**
 * Runs upload work and, when the plan refuses it, publishes `plan.limit_reached`. Call it around
 * a transaction, never inside one: the refusal rolls the transaction back, and the event must
 * outlive it.
 */
export async function watchPlanLimits<T>(
  events: DomainEvents,
  organizationId: number,
  work: () => T | Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isPlanLimit(error)) {
      await events
        .publishThrottled(
          {
            type: "plan.limit_reached",
            organizationId,
            data: { error_code: error.errorCode, limit: error.detail },
          },
          "plan.limit_reached",
          noticeIntervalSeconds,
        )
        // The upload's own answer matters more than the notice about it.
        .catch(() => undefined);
    }
    throw error;
  }
}
