import type { FastifyReply } from "fastify";
import { ThrottleError } from "./throttle/throttle.ts";

/** Runs `work`; a throttle refusal carries its delay into Retry-After before the error handler answers. */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ThrottleError) reply.header("retry-after", String(error.retryAfterSeconds));
    throw error;
  }
}
