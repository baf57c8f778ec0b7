import { guardedFetch } from "../../platform/net/guarded-fetch.ts";
import { describeNetworkFailure } from "../../platform/net/network-errors.ts";

/**
 * A store's answer that ends a step: `retryable` when trying again later may help (the network,
 * a 5xx, a 429), false when the store said no for a reason that stays (a duplicate build, a
 * revoked key). `message` is the store's own words.
 */
export class StoreError extends Error {
  override readonly name = "StoreError";
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface StoreHttpOptions {
  allowPrivateTargets: boolean;
  timeoutMs?: number;
}

/** The largest JSON answer a store sends back to us (lists of builds are paged far below it). */
const maxAnswerBytes = 8 * 1024 * 1024;

/** A request to a store's host through the guarded client (no private targets unless allowed, no redirects). */
export async function storeFetch(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string | Buffer | null },
  options: StoreHttpOptions,
): Promise<Response> {
  try {
    return await guardedFetch(
      url,
      { method: init.method, headers: init.headers ?? {}, body: init.body ?? null },
      {
        allowPrivateTargets: options.allowPrivateTargets,
        timeoutMs: options.timeoutMs ?? 120_000,
        maxBytes: maxAnswerBytes,
      },
    );
  } catch (error) {
    throw new StoreError(describeNetworkFailure(error) ?? (error as Error).message, true);
  }
}

/** Whether a status is worth another try. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Reads a JSON answer, or fails with what the store said (`errors[].detail` or `error.message`). */
export async function jsonOrStoreError<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.ok) return body as T;
  throw new StoreError(
    `${what}: ${storeMessageOf(body, text, response.status)}`,
    isRetryableStatus(response.status),
    response.status,
  );
}

/** The store's own words in an error body (App Store Connect's `errors[]`, Google's `error.message`). */
export function storeMessageOf(body: unknown, text: string, status: number): string {
  const apple = (body as { errors?: { title?: string; detail?: string }[] } | null)?.errors?.[0];
  if (apple) return [apple.title, apple.detail].filter(Boolean).join(": ");
  const google = (body as { error?: { message?: string } | string; error_description?: string } | null)
    ?.error;
  if (typeof google === "object" && google?.message) return google.message;
  const oauth = body as { error?: string; error_description?: string } | null;
  if (typeof oauth?.error === "string")
    return [oauth.error, oauth.error_description].filter(Boolean).join(": ");
  return `HTTP ${status}${text ? ` ${text.slice(0, 200)}` : ""}`;
}
