import type { TFunction } from "i18next";
import type { UploadMessage } from "./upload-rules.ts";
import type { PreloadPhase } from "./use-preload.ts";

/** Spec §4: 'Uploading… ' and the percentage, at 100% 'GET DATA FROM FILE', then COMPLETED. */
export function statusText(phase: PreloadPhase, progress: number, t: TFunction, processing = false): string {
  if (processing) return t("upload.processing");
  if (phase === "uploading") return `${t("upload.uploading")}${progress}%`;
  if (phase === "reading") return t("GET DATA FROM FILE");
  if (phase === "done") return t("COMPLETED");
  return "";
}

export function messageText(message: UploadMessage | null, t: TFunction): string | null {
  return message ? t(message.key, message.values) : null;
}
