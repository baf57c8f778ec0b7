import { z } from "zod";
import { buildWarning } from "./build-warnings.ts";
import { pageOf } from "./common.ts";

/** Spec §3: 0 Android, 1 iOS, 2 Windows, 3 macOS. */
export const appType = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);
export type AppType = z.infer<typeof appType>;
export {
  appTypeWords,
  fileNameTooLongMessage,
  maxUploadFileNameLength,
  type UploadErrorCode,
  uploadErrorCodes,
  uploadErrorDetails,
  uploadErrorMessages,
} from "./application-constants.ts";

export const uploadErrorBody = z
  .object({ error_code: z.number().int(), detail: z.string() })
  .meta({ id: "UploadError" });

export const userSummary = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});
export type UserSummary = z.infer<typeof userSummary>;

/** Spec §3 "Version" (id, title, app, version, icon, date) plus what a build page shows. */
export const version = z
  .object({
    id: z.number().int(),
    title: z.string(),
    app: z.number().int(),
    app_type: appType,
    version: z.string(),
    build_version_number: z.string(),
    /** Signed PNG URL, or null when the build carries no icon. */
    icon: z.string().nullable(),
    date: z.string(),
    state: z.enum(["processing", "ready", "failed"]),
    file_name: z.string(),
    file_size: z.number().int(),
    sha256: z.string(),
    content_type: z.string(),
    bundle_id: z.string().nullable(),
    min_os_version: z.string().nullable(),
    whats_new: z.string(),
    comment: z.string(),
    ready_to_sale: z.boolean(),
    git_branch: z.string().nullable(),
    git_tag: z.string().nullable(),
    git_commit: z.string().nullable(),
    /** The repository CI named (a web URL links branch, tag and commit on the app page). */
    git_url: z.string().nullable(),
    /** Who built it, as CI said: "CI", "Fastlane", "Gradle", "bitrise", ... */
    build_type: z.string().nullable(),
    /** The bundle version CI read from the build (fastlane: CFBundleVersion). */
    custom_bundle_version: z.string().nullable(),
    uploaded_by: userSummary.nullable(),
    download_count: z.number().int(),
    install_count: z.number().int(),
    /** Short-lived signed URL (no cookie needed), named after the uploaded file. */
    download_url: z.string(),
    has_universal_apk: z.boolean(),
    /** The inspector's reading (signing, SDKs, permissions, provisioning ...), icon excluded. */
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Version" });
export type Version = z.infer<typeof version>;
export const versionPage = pageOf(version);

export const appLink = z.object({
  id: z.number().int(),
  title: z.string(),
  app_type: appType,
  environment: z.string(),
});
export type AppLink = z.infer<typeof appLink>;

/** Spec §3 "Application record"; fields the spec names keep their names. */
export const applicationRecord = z
  .object({
    id: z.number().int(),
    project_title: z.string(),
    title: z.string(),
    /** The current version string, "" before the first build. */
    new_version: z.string(),
    app_type: appType,
    /** The project's first app; the others were added to it as platforms. */
    base_app: z.number().int(),
    /** The project id. */
    project_app: z.number().int(),
    environment: z.string(),
    slack_webhook: z.string(),
    slack_channel: z.string(),
    description: z.string(),
    organization: z.number().int(),
    /** Install links of the app (filled by distribution). */
    distribution: z.array(z.record(z.string(), z.unknown())),
    /** Ids of the project's members. */
    users: z.array(z.number().int()),
    team_detail: z.array(z.object({ id: z.number().int(), title: z.string() })),
    count_versions: z.number().int(),
    current_version: version.nullable(),
    /** Up to five earlier versions, newest first (one app; lists leave it empty). */
    previous_versions: z.array(version),
    /** Where CI PUTs builds: append the user's API key and a slash. */
    upload_path: z.string(),
    ready_to_sale: z.boolean(),
    /** Whether apps built with the Updraft SDK may send feedback (shake to report). */
    feedback_enabled: z.boolean(),
    /** Whether the SDK offers testers newer builds of this app. */
    autoupdate_enabled: z.boolean(),
    /** The project's apps for other platforms in the same environment. */
    other_platform: z.array(appLink),
    app_key: z.string(),
    unique_app_id: z.string().nullable(),
    tag_name: z.string(),
    icon: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Application" });
export type ApplicationRecord = z.infer<typeof applicationRecord>;

/** A CI upload's answer: the app, plus what Updraft's clients read (`success`, `public_link`). */
export const ciUploadResult = applicationRecord.extend({
  success: z.literal("ok"),
  /** The app's install page, whatever is uploaded next. */
  public_link: z.string(),
  /** Why phones will refuse this build, if they will (see build-warnings.ts); empty when none. */
  warnings: z.array(buildWarning),
});
export const applicationPage = pageOf(applicationRecord);

/** GET /{id}/ variants add these. */
export const applicationDetail = applicationRecord.extend({
  builds: versionPage.optional(),
  /** ?showenvall=1: the project's apps of this platform in every environment. */
  environments: z.array(appLink).optional(),
});
export type ApplicationDetail = z.infer<typeof applicationDetail>;

export const applicationListQuery = z.object({
  org: z.coerce.number().int().positive().optional(),
  title: z.string().trim().max(200).optional(),
  mobile_type: z.coerce.number().int().min(0).max(3).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

const trimmedTitle = z.string().trim().min(1, "This field may not be blank.").max(100);
const optionalText = (max: number) => z.string().trim().max(max).optional();

/** Spec §3 "Application draft": the confirm call after a preload. */
export const createAppInput = z.object({
  project_title: optionalText(100),
  title: optionalText(100),
  new_version: optionalText(100),
  description: optionalText(5000),
  organization: z.coerce.number().int().positive(),
  slack_webhook: z.string().trim().max(500).optional(),
  slack_channel: optionalText(100),
  preload_path: z.string().min(1, "This field may not be blank.").max(200),
  ready_to_sale: z.boolean().default(true),
  /** Add the new app as another platform of this project. */
  project_app: z.coerce.number().int().positive().nullable().optional(),
  version_exist: z.boolean().optional(),
  comment: optionalText(5000),
  environment: optionalText(50),
  app_type: appType.optional(),
  build_version_number: optionalText(100),
  whats_new: optionalText(5000),
  /** The user accepted that the build's bundle id replaces the app's (else error 4). */
  unique_app_id_changed: z.boolean().optional(),
  unique_app_id_new: z.string().trim().max(300).nullable().optional(),
  /** For an AAB: also make a universal APK (needs bundletool and a keystore; else error 8). */
  convert_to_apk: z.boolean().default(false),
});
export type CreateAppInput = z.infer<typeof createAppInput>;
/** What a client sends: fields with defaults may be left out. */
export type CreateAppRequest = z.input<typeof createAppInput>;

export const updateAppInput = z.object({
  project_title: trimmedTitle.optional(),
  title: trimmedTitle.optional(),
  description: optionalText(5000),
  environment: z.string().trim().min(1).max(50).optional(),
  slack_webhook: z.string().trim().max(500).optional(),
  slack_channel: optionalText(100),
  /** Which chat service `slack_webhook` belongs to; `auto` reads it from the URL. */
  chat_format: z.enum(["auto", "slack", "teams", "discord"]).optional(),
  ready_to_sale: z.boolean().optional(),
  feedback_enabled: z.boolean().optional(),
  autoupdate_enabled: z.boolean().optional(),
});
export type UpdateAppInput = z.infer<typeof updateAppInput>;

/** 200 reply of POST /api/applicationadd/?preload=1. */
export const preloadResult = z
  .object({
    preload_path: z.string(),
    version: z.string(),
    build_version_number: z.string(),
    version_exist: z.boolean(),
    unique_app_id_changed: z.boolean(),
    unique_app_id_new: z.string().nullable(),
    app_type: appType,
    name: z.string().nullable(),
    /** The app's title when the upload is for an app, else the build's name (Updraft's field). */
    title: z.string().nullable(),
    icon: z.string().nullable(),
    file_name: z.string(),
    file_size: z.number().int(),
    sha256: z.string(),
    bundle_id: z.string().nullable(),
    min_os_version: z.string().nullable(),
    expires_at: z.string(),
    /** Why devices will refuse this build though it uploaded fine (empty when none). */
    warnings: z.array(buildWarning),
  })
  .meta({ id: "Preload" });
export type PreloadResult = z.infer<typeof preloadResult>;

export const uploadTaskState = z.enum(["PENDING", "STARTED", "SUCCESS", "FAILURE"]);
export const uploadTaskResult = z
  .object({
    task_id: z.string(),
    state: uploadTaskState,
    result: applicationRecord.nullable(),
    error_code: z.number().int().nullable(),
    detail: z.string(),
  })
  .meta({ id: "UploadTask" });
export type UploadTaskResult = z.infer<typeof uploadTaskResult>;
export const taskAccepted = z.object({ task_id: z.string() });
export type TaskAccepted = z.infer<typeof taskAccepted>;

export const updateVersionInput = z.object({
  whats_new: z.string().trim().max(5000).optional(),
  comment: z.string().trim().max(5000).optional(),
  ready_to_sale: z.boolean().optional(),
  /** PUT with a preload: replace the version's file with it (Updraft's exchange step 2). */
  preload_path: z.string().min(1, "This field may not be blank.").max(200).optional(),
});
export type UpdateVersionInput = z.infer<typeof updateVersionInput>;

export const exchangeFileInput = z.object({
  preload_path: z.string().min(1, "This field may not be blank.").max(200),
  comment: z.string().trim().min(1, "This field may not be blank.").max(5000),
});
export type ExchangeFileInput = z.infer<typeof exchangeFileInput>;

export const appLogEntry = z
  .object({
    id: z.number().int(),
    action: z.string(),
    detail: z.record(z.string(), z.unknown()),
    user: userSummary.nullable(),
    version: z.number().int().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "AppLog" });
export type AppLogEntry = z.infer<typeof appLogEntry>;
export const appLogPage = pageOf(appLogEntry);

export const myAppRole = z.object({
  role: z.number().int(),
  project_role: z.number().int().nullable(),
  can_upload: z.boolean(),
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  can_download: z.boolean(),
});
export type MyAppRole = z.infer<typeof myAppRole>;
