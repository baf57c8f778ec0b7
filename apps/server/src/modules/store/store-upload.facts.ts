import { z } from "zod";

/**
 * What a store upload was asked to send, fixed when it was asked: the build's file and numbers
 * and the publishing choices. A later file exchange does not change an upload under way.
 */
export const storeUploadOptions = z.object({
  fileKey: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  sha256: z.string(),
  bundleId: z.string(),
  version: z.string(),
  buildNumber: z.string(),
  releaseNotes: z.string(),
  language: z.string(),
  track: z.string().nullable(),
  rollout: z.number(),
  groups: z.array(z.string()),
});
export type StoreUploadOptions = z.infer<typeof storeUploadOptions>;

/** Where an App Store Connect upload stands, saved after every step so a retry goes on from there. */
export const appleProgress = z.object({
  appId: z.string().optional(),
  buildUploadId: z.string().optional(),
  fileId: z.string().optional(),
  operations: z
    .array(
      z.object({
        method: z.string(),
        url: z.string(),
        offset: z.number(),
        length: z.number(),
        requestHeaders: z.array(z.object({ name: z.string(), value: z.string() })),
      }),
    )
    .optional(),
  /** Offsets of the slices the store has taken. */
  sent: z.array(z.number()).default([]),
  uploaded: z.boolean().default(false),
  buildId: z.string().optional(),
  notesSet: z.boolean().default(false),
  groupsSet: z.boolean().default(false),
});
export type AppleProgress = z.infer<typeof appleProgress>;

/** Where a Google Play publish stands. */
export const googleProgress = z.object({
  editId: z.string().optional(),
  session: z.string().optional(),
  versionCode: z.number().int().optional(),
  trackSet: z.boolean().default(false),
});
export type GoogleProgress = z.infer<typeof googleProgress>;
