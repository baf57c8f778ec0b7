import { z } from "zod";

const blankMessage = "This field may not be blank.";
const bucketName = z
  .string()
  .trim()
  .min(3, "Bucket names have 3 to 63 characters.")
  .max(63, "Bucket names have 3 to 63 characters.")
  .regex(/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/, "Use lower-case letters, digits, dots and hyphens.");
const prefixField = z
  .string()
  .trim()
  .max(200, "Ensure this field has no more than 200 characters.")
  .regex(
    /^([A-Za-z0-9][A-Za-z0-9._-]*\/?)*$/,
    "Use folder names of letters, digits, dots, hyphens, underscores and /.",
  )
  .default("");

/** Which storage an organization's new files go to. */
export const storageKinds = ["instance", "s3", "gcs"] as const;
export type StorageKind = (typeof storageKinds)[number];

/** `GET/PUT /api/orgs-custom-storage/{id}/`: an S3-compatible bucket. The secret is never sent back. */
export const customStorage = z
  .object({
    enabled: z.boolean(),
    configured: z.boolean(),
    endpoint: z.string(),
    region: z.string(),
    bucket: z.string(),
    prefix: z.string(),
    path_style: z.boolean(),
    access_key_id: z.string(),
    secret_access_key_set: z.boolean(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "CustomStorage" });
export type CustomStorage = z.infer<typeof customStorage>;

export const customStorageInput = z.object({
  /** Empty for AWS S3; the service's https URL otherwise (MinIO, R2, Wasabi, Spaces). */
  endpoint: z.string().trim().max(300, "Ensure this field has no more than 300 characters.").default(""),
  region: z.string().trim().max(64).default("us-east-1"),
  bucket: bucketName,
  prefix: prefixField,
  path_style: z.boolean().default(false),
  access_key_id: z.string().trim().min(1, blankMessage).max(256),
  /** Left out (or empty) to keep the secret saved before. */
  secret_access_key: z.string().max(512).optional(),
});
export type CustomStorageInput = z.infer<typeof customStorageInput>;

/** `GET/PUT /api/orgs-google-cloud-storage/{id}/`; PUT is multipart with the `gcs_credentials` file. */
export const googleCloudStorage = z
  .object({
    enabled: z.boolean(),
    configured: z.boolean(),
    bucket: z.string(),
    prefix: z.string(),
    project_id: z.string(),
    client_email: z.string(),
    gcs_credentials_set: z.boolean(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "GoogleCloudStorage" });
export type GoogleCloudStorage = z.infer<typeof googleCloudStorage>;

export const googleCloudStorageInput = z.object({ bucket: bucketName, prefix: prefixField });

/** The organization's storage as a whole: where new files go, and the latest move of old ones. */
export const storageOverview = z
  .object({
    kind: z.enum(storageKinds),
    files_elsewhere: z.number().int(),
    move: z
      .object({
        id: z.number().int(),
        state: z.enum(["queued", "running", "done", "failed"]),
        total_files: z.number().int(),
        moved_files: z.number().int(),
        total_bytes: z.number().int(),
        moved_bytes: z.number().int(),
        error: z.string(),
        started_at: z.string(),
        finished_at: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: "StorageOverview" });
export type StorageOverview = z.infer<typeof storageOverview>;
