import { z } from "zod";

export const healthResponse = z.object({ status: z.literal("ok") });

export const readinessCheck = z.object({ ok: z.boolean(), error: z.string().optional() });

export const readinessResponse = z.object({
  status: z.enum(["ok", "unavailable"]),
  /** The process is draining before it stops: proxies should send requests to the others. */
  stopping: z.literal(true).optional(),
  checks: z.object({ database: readinessCheck, storage: readinessCheck }),
});
export type ReadinessResponse = z.infer<typeof readinessResponse>;
