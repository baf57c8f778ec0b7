import type { ResignError } from "@tarmac/inspector/apple-sign";
import { AppError } from "../../http/errors.ts";

export interface ResignInput {
  buildId: number;
  p12: Buffer;
  password: string;
  profiles: Buffer[];
  entitlements: Buffer | null;
  bundleIds: Record<string, string>;
}

const bundleIdPattern = /^[A-Za-z0-9.-]{1,255}$/;

/**
 * `bundle_ids` as the form sends it: a JSON object {"old": "new"}, a JSON list of
 * {"old": ..., "new": ...} pairs, or lines of "old=new". Empty means no change.
 */
export function parseBundleIds(text: string | undefined): Record<string, string> {
  const raw = (text ?? "").trim();
  if (!raw) return {};
  let pairs: Array<[string, string]>;
  try {
    if (raw.startsWith("{") || raw.startsWith("[")) {
      const parsed: unknown = JSON.parse(raw);
      pairs = Array.isArray(parsed)
        ? parsed.map((item) => [
            String(item?.old ?? item?.old_bundle_id),
            String(item?.new ?? item?.new_bundle_id),
          ])
        : Object.entries(parsed as Record<string, unknown>).map(([old, next]) => [old, String(next)]);
    } else {
      pairs = raw
        .split(/[\n,]+/)
        .filter((line) => line.trim())
        .map((line) => {
          const [old = "", next = ""] = line.split("=").map((part) => part.trim());
          return [old, next];
        });
    }
  } catch {
    throw AppError.validation({ bundle_ids: ["Send a JSON object mapping old bundle ids to new ones."] });
  }
  const mapping: Record<string, string> = {};
  for (const [old, next] of pairs) {
    if (!bundleIdPattern.test(old) || !bundleIdPattern.test(next)) {
      throw AppError.validation({ bundle_ids: [`"${old}" -> "${next}" is not a pair of bundle ids.`] });
    }
    Object.defineProperty(mapping, old, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return mapping;
}

/** Error 8 (spec §8): the signing set-up given does not fit the build; the detail says what to fix. */
export function resignRefused(error: ResignError | string): AppError {
  const detail = typeof error === "string" ? error : error.message;
  return new AppError("upload_error_8", 400, detail, undefined, 8);
}
