import { z } from "zod";

export const healthResponse = z.object({ status: z.literal("ok") });

export const readinessCheck = z.object({ ok: z.boolean(), error: z.string().optional() });

export const readinessResponse = z.object({
  status: z.enum(["ok", "unavailable"]),
  checks: z.object({ database: readinessCheck, storage: readinessCheck }),
});
export type ReadinessResponse = z.infer<typeof readinessResponse>;
