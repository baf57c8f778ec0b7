import type { TFunction } from "i18next";
import { type LimitWayOut, withWayOut } from "../../../ui/limit-way-out.ts";
import { BUILD_LIMIT, PROJECT_LIMIT, STORAGE_FULL, type UploadMessage } from "./upload-rules.ts";
import type { PreloadState } from "./use-preload.ts";

/**
 * Spec §4: 'Uploading… ' and the percentage, at 100% 'GET DATA FROM FILE', then COMPLETED; while
 * the connection is down, that the upload resumes once it is back.
 */
export function statusText(
  { phase, progress, reconnecting }: Pick<PreloadState, "phase" | "progress" | "reconnecting">,
  t: TFunction,
  processing = false,
): string {
  if (processing) return t("upload.processing");
  if (reconnecting && phase === "uploading") return t("upload.connection_lost");
  if (phase === "uploading") return `${t("upload.uploading")}${progress}%`;
  if (phase === "reading") return t("GET DATA FROM FILE");
  if (phase === "done") return t("COMPLETED");
  return "";
}

// The spec's plan-limit messages end "Please upgrade your plan": where the instance's administrator
// sets the limits, the fact is followed by whom to ask instead.
const ADMINISTERED_LIMITS: Record<string, string> = {
  [STORAGE_FULL]: "upload.storage_full",
  [BUILD_LIMIT]: "upload.build_limit_reached",
};

export function messageText(
  message: UploadMessage | null,
  t: TFunction,
  wayOut: LimitWayOut | null = null,
): string | null {
  if (!message) return null;
  // The spec has no wording of its own for this one: the fact, then the way out wherever it is.
  if (message.key === PROJECT_LIMIT) return withWayOut(t(PROJECT_LIMIT), wayOut);
  const fact = wayOut?.managedBy === "administrator" ? ADMINISTERED_LIMITS[message.key] : undefined;
  return fact ? withWayOut(t(fact), wayOut) : t(message.key, message.values);
}
