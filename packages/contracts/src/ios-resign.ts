import { z } from "zod";
import { uploadTaskState } from "./application.ts";

/** One re-signing of an iOS build: who asked, with what, and how its task went. */
export const iosResignRecord = z
  .object({
    id: z.number().int(),
    build_id: z.number().int(),
    task_id: z.string(),
    state: uploadTaskState,
    error_code: z.number().int().nullable(),
    detail: z.string(),
    /** Old bundle id -> new one, as asked. */
    bundle_ids: z.record(z.string(), z.string()),
    certificate_subject: z.string(),
    certificate_sha256: z.string(),
    certificate_expires: z.string(),
    profiles: z.array(
      z.object({ name: z.string(), uuid: z.string(), app_id: z.string(), expires: z.string() }),
    ),
    custom_entitlements: z.boolean(),
    /** The new version holding the re-signed IPA, once the task succeeded. */
    result_build_id: z.number().int().nullable(),
    created_by: z.number().int().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "IosResign" });
export type IosResignRecord = z.infer<typeof iosResignRecord>;

export const iosResignList = z.array(iosResignRecord);

export const iosResignQuery = z.object({ build_id: z.coerce.number().int().positive() });

export const iosResignAccepted = z.object({ task_id: z.string(), id: z.number().int() });
export type IosResignAccepted = z.infer<typeof iosResignAccepted>;
