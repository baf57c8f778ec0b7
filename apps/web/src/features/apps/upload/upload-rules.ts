// The client-side checks and messages of spec §5 and §8 for build uploads. Every message is a
// translation key (the spec's own wording) plus its values.
import {
  fileNameTooLongMessage,
  type UploadErrorCode,
  uploadErrorMessages,
} from "@tarmac/contracts/application-constants";
import { acceptedExtensionList, detectType } from "@tarmac/inspector/rules";
import type { AppType } from "../../../api/applications.ts";
import { ApiError } from "../../../api/client.ts";
import type { OrganizationUsage } from "../../../api/plans.ts";
import { ConnectionLostError } from "../../../api/resumable-upload.ts";

export interface UploadMessage {
  key: string;
  values?: Record<string, string>;
  /** A plan limit stopped the upload: the message offers the plan page. */
  plan?: boolean;
}

export const MULTIPLE_FILES = "CANNOT LOAD MULTIPLE FILES PLEASE SELECT ONE FILE";
export const NO_ORGANIZATION = "PLEASE SELECT ONE OF THE ORGANIZATION";
export const FILE_NAME_TOO_LONG = "ENSURE THIS FILENAME HAS AT MOST 100 CHARACTERS";
export const APPLICATION_ERROR = "errors.application";
export const STORAGE_FULL = uploadErrorMessages[6];
export const BUILD_LIMIT = uploadErrorMessages[7];
/** The server's own words, when it gave some: never "Application Error" over a real reason. */
export const SERVER_SAID = "errors.server_said";
/** Followed by what lifts the limit on this instance (see status-text). */
export const PROJECT_LIMIT = "upload.project_limit_reached";
/** The connection stayed down through every retry of a resumable upload. */
export const CONNECTION_FAILED = "upload.connection_failed";

const BYTES_PER_MB = 1024 * 1024;

/** In MB, as the usage call answers them; uploads waiting to be added hold space too. */
export type SpaceUsage = Pick<OrganizationUsage, "space_used" | "space_limit"> &
  Partial<
    Pick<
      OrganizationUsage,
      | "pending_space"
      | "builds_count"
      | "build_limit"
      | "pending_uploads"
      | "projects_count"
      | "projects_limit"
    >
  >;

export interface FileCheckContext {
  organization: number | null;
  /** The existing app's type, or the chosen platform for a .zip of a new app. */
  appTypeHint?: AppType;
  usage: SpaceUsage | null;
  /** The build would start a new project (a new app that joins none). */
  newProject?: boolean;
}

/** Space used plus the file (both in MB) at or above a non-zero limit blocks the upload. */
export function exceedsSpace(usage: SpaceUsage | null, fileBytes: number): boolean {
  if (!usage || usage.space_limit <= 0) return false;
  return usage.space_used + (usage.pending_space ?? 0) + fileBytes / BYTES_PER_MB >= usage.space_limit;
}

/** Builds (and uploads waiting to be added) at a non-zero build limit block another upload. */
export function atBuildLimit(usage: SpaceUsage | null): boolean {
  if (!usage?.build_limit || usage.build_limit <= 0) return false;
  return (usage.builds_count ?? 0) + (usage.pending_uploads ?? 0) >= usage.build_limit;
}

/** Every project a non-zero project limit allows exists already. */
export function atProjectLimit(usage: SpaceUsage | null): boolean {
  if (!usage?.projects_limit || usage.projects_limit <= 0) return false;
  return (usage.projects_count ?? 0) >= usage.projects_limit;
}

/** The first reason the chosen files cannot be uploaded, in the order the spec checks them. */
export function checkFiles(files: readonly File[], context: FileCheckContext): UploadMessage | null {
  if (files.length > 1) return { key: MULTIPLE_FILES };
  const file = files[0];
  if (!file) return null;
  if (!context.organization) return { key: NO_ORGANIZATION };
  if (!detectType(file.name, context.appTypeHint)) {
    return { key: "upload.unsupported_type", values: { types: acceptedExtensionList() } };
  }
  // Checked before a byte is sent: a full plan should not cost the whole upload first.
  if (exceedsSpace(context.usage, file.size)) return { key: STORAGE_FULL, plan: true };
  if (atBuildLimit(context.usage)) return { key: BUILD_LIMIT, plan: true };
  if (context.newProject && atProjectLimit(context.usage)) return { key: PROJECT_LIMIT, plan: true };
  return null;
}

function isUploadErrorCode(code: unknown): code is UploadErrorCode {
  return typeof code === "number" && code in uploadErrorMessages;
}

function mentionsLongFileName(value: unknown): boolean {
  const texts = Array.isArray(value) ? value : [value];
  return texts.some((text) => typeof text === "string" && text.includes(fileNameTooLongMessage));
}

/** The message of a code from an upload task that failed, or of an unknown failure. */
export function messageOfCode(code: number | null | undefined): UploadMessage {
  return isUploadErrorCode(code) ? { key: uploadErrorMessages[code] } : { key: APPLICATION_ERROR };
}

/**
 * What a failed preload or confirm shows. 401 has already sent the user to /login, so it
 * shows nothing; a cancelled upload shows nothing either.
 */
export function describeUploadFailure(error: unknown): UploadMessage | null {
  if (error instanceof DOMException && error.name === "AbortError") return null;
  if (error instanceof ConnectionLostError) return { key: CONNECTION_FAILED };
  if (!(error instanceof ApiError)) return { key: APPLICATION_ERROR };
  if (error.status === 401) return null;
  const body =
    typeof error.body === "object" && error.body !== null ? (error.body as Record<string, unknown>) : {};
  if (error.status === 400) {
    if (isUploadErrorCode(body.error_code)) {
      return {
        key: uploadErrorMessages[body.error_code],
        plan: body.error_code === 6 || body.error_code === 7,
      };
    }
    if (mentionsLongFileName(body.file)) return { key: FILE_NAME_TOO_LONG };
  }
  const plan = typeof body.error_code === "string" && body.error_code.endsWith("_limit_reached");
  const said = serverWords(body);
  return said ? { key: SERVER_SAID, values: { message: said }, plan } : { key: APPLICATION_ERROR };
}

/** The `detail` of an answer, else its first field message ("project_title: This field is required."). */
function serverWords(body: Record<string, unknown>): string | null {
  if (typeof body.detail === "string" && body.detail.trim()) return body.detail;
  for (const [field, value] of Object.entries(body)) {
    const first = Array.isArray(value) ? value[0] : undefined;
    if (typeof first === "string" && first.trim())
      return field === "non_field_errors" ? first : `${field}: ${first}`;
  }
  return null;
}

/** True when a .zip needs the user to say which platform it is for (a new app only). */
export function needsZipPlatform(fileName: string): boolean {
  return detectType(fileName)?.fileType === "zip";
}
