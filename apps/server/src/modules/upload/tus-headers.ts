/**
 * The tus 1.0.0 protocol's request headers, read strictly: a header the protocol defines but
 * that does not parse is a 400 before anything is stored.
 */
import { AppError } from "../../http/errors.ts";
import { containsNul } from "../../http/nul-guard.ts";

export const tusVersion = "1.0.0";
export const tusExtensions = "creation,creation-with-upload,termination,expiration";
/** The only body type tus sends bytes in (PATCH, and POST with creation-with-upload). */
export const tusContentType = "application/offset+octet-stream";

/** Longest Upload-Metadata kept (it is answered back on every HEAD). */
const maxMetadataLength = 4096;

type Headers = Record<string, string | string[] | undefined>;

/** A non-negative integer header (Upload-Length, Upload-Offset), or null when it is absent. */
export function integerHeader(headers: Headers, name: string): number | null {
  const raw = headers[name];
  if (raw === undefined) return null;
  const value = typeof raw === "string" && /^\d{1,16}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw AppError.badRequest(`${name} must be a non-negative integer.`);
  return value;
}

/**
 * Upload-Metadata: comma-separated `key base64value` pairs (the value may be left out), keys
 * unique and free of spaces and commas. Values are decoded as UTF-8 text.
 */
export function parseUploadMetadata(raw: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (raw === undefined || raw.trim() === "") return metadata;
  const refuse = (why: string) => AppError.badRequest(`Upload-Metadata ${why}.`);
  if (raw.length > maxMetadataLength) throw refuse(`is longer than ${maxMetadataLength} characters`);
  for (const pair of raw.split(",")) {
    const [key, value = "", ...rest] = pair.trim().split(" ");
    if (!key || rest.length > 0) throw refuse("must be comma-separated pairs of a key and a Base64 value");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 === 1)
      throw refuse(`has a value for ${key} that is not Base64`);
    if (Object.hasOwn(metadata, key)) throw refuse(`names ${key} twice`);
    const text = Buffer.from(value, "base64").toString("utf8");
    if (containsNul(text) || containsNul(key)) throw refuse("may not contain NUL characters");
    metadata[key] = text;
  }
  return metadata;
}

/** Whether a request carries bytes for the upload (a declared length above zero, or chunked). */
export function carriesBody(headers: Headers): boolean {
  const length = Number(headers["content-length"] ?? 0);
  return length > 0 || headers["transfer-encoding"] !== undefined;
}

/** Whether the body is declared as tus bytes (parameters such as a charset are allowed). */
export function isTusBody(headers: Headers): boolean {
  const type = headers["content-type"];
  return typeof type === "string" && type.split(";")[0]?.trim().toLowerCase() === tusContentType;
}
