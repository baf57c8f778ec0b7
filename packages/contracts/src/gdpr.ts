import { z } from "zod";

export const dataExportStatus = z.enum(["pending", "ready", "failed"]);
export type DataExportStatus = z.infer<typeof dataExportStatus>;

/** Answer to a new export request (or to a repeat while one is still being built). */
export const dataExportCreated = z.object({ id: z.number().int(), status: z.literal("pending") });
export type DataExportCreated = z.infer<typeof dataExportCreated>;

export const dataExport = z.object({
  id: z.number().int(),
  status: dataExportStatus,
  created_at: z.string(),
  completed_at: z.string().nullable(),
  /** Bytes of the JSON file, once ready. */
  size: z.number().int().nullable(),
  /** A short-lived signed URL that needs no cookie; null until the export is ready. */
  download_url: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExport>;

export const dataExportList = z.array(dataExport);
