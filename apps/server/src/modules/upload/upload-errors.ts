import { type UploadErrorCode, uploadErrorDetails } from "@tarmac/contracts";
import { acceptedExtensionList } from "@tarmac/inspector/rules";
import { AppError } from "../../http/errors.ts";

/**
 * Spec §8: upload failures the client acts on, answered 400 {error_code, detail}. Clients act on
 * the code (the web app shows the spec's text for it); `detail` is a sentence for CI logs.
 */
export function uploadError(code: UploadErrorCode, detail: string = uploadErrorDetails[code]): AppError {
  return new AppError(`upload_error_${code}`, 400, detail, undefined, code);
}

export function unsupportedFileType(): AppError {
  return uploadError(1, `Unsupported file type. Please upload the ${acceptedExtensionList()}`);
}

export function preloadInvalid(): AppError {
  return AppError.validation({
    preload_path: ["This upload has expired or does not exist. Upload the file again."],
  });
}
