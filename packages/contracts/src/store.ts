import { z } from "zod";

/** The two stores a build can be published to. */
export const storeKinds = ["app_store", "google_play"] as const;
export type StoreKind = (typeof storeKinds)[number];

const longest = (length: number) => `Ensure this field has no more than ${length} characters.`;
const blank = "This field may not be blank.";

/** An App Store Connect API key or a Google Play service account. The key itself is never sent back. */
export const developerAccount = z
  .object({
    id: z.number().int(),
    org: z.number().int(),
    store: z.enum(storeKinds),
    key_name: z.string(),
    /** App Store Connect: the issuer and key ids; Google Play: null. */
    issuer_id: z.string().nullable(),
    key_id: z.string().nullable(),
    /** Google Play: the service account's e-mail; App Store Connect: null. */
    client_email: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "DeveloperAccount" });
export type DeveloperAccount = z.infer<typeof developerAccount>;

export const developerAccountListQuery = z.object({ org: z.coerce.number().int().positive() });

export const appleDeveloperAccountInput = z.object({
  org: z.coerce.number().int().positive(),
  key_name: z.string().trim().min(1, blank).max(100, longest(100)),
  issuer_id: z
    .string()
    .trim()
    .regex(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      "Enter the issuer ID (a UUID).",
    ),
  key_id: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{10}$/, "Enter the 10-character key ID."),
});
export type AppleDeveloperAccountInput = z.infer<typeof appleDeveloperAccountInput>;

export const googleDeveloperAccountInput = z.object({
  org: z.coerce.number().int().positive(),
  key_name: z.string().trim().min(1, blank).max(100, longest(100)),
});
export type GoogleDeveloperAccountInput = z.infer<typeof googleDeveloperAccountInput>;

/** `check_possibility_to_upload_*` and `check_ipa_build_version`: which account, which app, which build. */
export const storeCheckInput = z.object({
  integration_id: z.coerce.number().int().positive(),
  app_id: z.coerce.number().int().positive(),
  /** The version (build) to check; the app's current version when left out. */
  uid: z.coerce.number().int().positive().optional(),
});
export type StoreCheckInput = z.infer<typeof storeCheckInput>;

export const storeCheckNames = ["app", "access", "signing", "build_version"] as const;
export type StoreCheckName = (typeof storeCheckNames)[number];

export const storeCheckResult = z
  .object({
    ok: z.boolean(),
    checks: z.array(
      z.object({
        name: z.enum(storeCheckNames),
        ok: z.boolean(),
        /** Why it failed, or what was found. */
        detail: z.string(),
      }),
    ),
    /** The store's latest build number for the app, when it has one. */
    store_latest_build: z.string().nullable(),
  })
  .meta({ id: "StoreCheckResult" });
export type StoreCheckResult = z.infer<typeof storeCheckResult>;

export const googlePlayTracks = ["internal", "alpha", "beta", "production"] as const;

/** The form fields of `upload_ipa_tesflight` / `upload_aab_googleplay` besides the optional plist_file. */
export const storeUploadInput = z.object({
  /** The version (build) to publish. */
  uid: z.coerce.number().int().positive(),
  app_id: z.coerce.number().int().positive(),
  /** The developer account; the organization's only one of that store when left out. */
  integration_id: z.coerce.number().int().positive().optional(),
  /** App Store Connect: "What to Test"; Google Play: the release notes. The build's own notes when left out. */
  release_notes: z.string().max(4000, longest(4000)).optional(),
  /** Google Play: the language of the release notes. */
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, "Enter a language such as en-US.")
    .default("en-US"),
  /** Google Play: internal, alpha (closed), beta (open) or production. */
  track: z.enum(googlePlayTracks).default("internal"),
  /** Google Play: a staged rollout's share of users in percent; 100 releases to everyone. */
  rollout: z.coerce.number().min(0.01).max(100).default(100),
  /** App Store Connect: beta group ids, comma separated. */
  groups: z
    .string()
    .max(2000, longest(2000))
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
});
export type StoreUploadInput = z.infer<typeof storeUploadInput>;

export const storeUploadStates = ["queued", "uploading", "processing", "done", "failed"] as const;
export type StoreUploadState = (typeof storeUploadStates)[number];

export const storeUpload = z
  .object({
    task_id: z.string(),
    store: z.enum(storeKinds),
    app: z.number().int(),
    version: z.number().int(),
    version_title: z.string(),
    integration_id: z.number().int().nullable(),
    state: z.enum(storeUploadStates),
    /** Bytes sent of the file, in percent. */
    progress: z.number(),
    /** Failed: the store's own message; otherwise what is going on. */
    message: z.string(),
    track: z.string().nullable(),
    attempts: z.number().int(),
    created_by: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "StoreUpload" });
export type StoreUpload = z.infer<typeof storeUpload>;

export const storeUploadTaskQuery = z.object({ task_id: z.string().uuid() });
export const storeUploadHistoryQuery = z.object({ app_id: z.coerce.number().int().positive() });
