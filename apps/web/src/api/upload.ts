// fetch cannot report upload progress, so multipart uploads go through XMLHttpRequest with the
// same headers and failure rules as the fetch client.
import {
  ApiError,
  buildHeaders,
  buildUrl,
  createFailure,
  parseBodyText,
  type QueryValue,
  SERVER_ERROR_MESSAGE,
} from "./client.ts";

export interface UploadOptions {
  method?: "POST" | "PUT" | "PATCH";
  query?: Record<string, QueryValue>;
  /** Called with a whole percentage (0–100) and the raw byte counts. */
  onProgress?: (percent: number, loaded: number, total: number) => void;
}

export interface UploadResult<T> {
  status: number;
  body: T;
}

export interface UploadHandle<T> {
  promise: Promise<UploadResult<T>>;
  abort: () => void;
}

export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  options: UploadOptions = {},
): UploadHandle<T> {
  const method = options.method ?? "POST";
  const url = buildUrl(path, options.query);
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadResult<T>>((resolve, reject) => {
    xhr.open(method, url);
    buildHeaders(method, url, form).forEach((value, name) => {
      xhr.setRequestHeader(name, value);
    });
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || event.total === 0) return;
      options.onProgress?.(Math.round((event.loaded / event.total) * 100), event.loaded, event.total);
    };
    xhr.onload = () => {
      const body = parseBodyText(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve({ status: xhr.status, body: body as T });
      else reject(createFailure(xhr.status, body));
    };
    xhr.onerror = () => {
      const error = new ApiError(0, null, SERVER_ERROR_MESSAGE);
      console.error(error);
      reject(error);
    };
    xhr.onabort = () => reject(new DOMException("Upload aborted", "AbortError"));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
