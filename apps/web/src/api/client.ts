// The one HTTP client of the web app: token header, anti-forgery header, JSON by default,
// and the spec's failure rules (§8): log, reject with ApiError, and send 401s to /login.

import { loginPathFor } from "./next-path.ts";
import { clearToken, getToken, readCookie } from "./token.ts";

export { clearToken, getToken, setToken } from "./token.ts";

export const SERVER_ERROR_MESSAGE = "Server Error";
const XSRF_COOKIE = "XSRF-TOKEN";
const XSRF_HEADER = "X-XSRF-TOKEN";
const LOGIN_PATH = "/login";
// The sign-in page brings the person back to where the 401 happened.

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

type Navigator = (path: string) => void;
// Until the router registers itself a full page load still reaches the login page.
let navigateTo: Navigator = (path) => window.location.assign(path);

/** The router registers its navigate function so that 401s redirect outside components too. */
export function registerNavigator(navigator: Navigator): void {
  navigateTo = navigator;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  responseType?: "json" | "blob";
}

export function isRelativeUrl(url: string): boolean {
  return !/^[a-z][a-z\d+.-]*:/i.test(url) && !url.startsWith("//");
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) params.append(key, String(value));
  }
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${search}`;
}

function isRawBody(body: unknown): boolean {
  return body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams;
}

export function buildHeaders(
  method: string,
  url: string,
  body: unknown,
  extra?: Record<string, string>,
): Headers {
  const headers = new Headers({ Accept: "application/json" });
  const token = getToken();
  if (token) headers.set("Authorization", `Token ${token}`);
  if (body !== undefined && !isRawBody(body)) headers.set("Content-Type", "application/json");
  // Only our own origin may see the anti-forgery value; safe methods need none.
  if (method !== "GET" && method !== "HEAD" && isRelativeUrl(url)) {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers.set(XSRF_HEADER, xsrf);
  }
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return headers;
}

function readDetail(body: unknown): string | null {
  if (typeof body === "object" && body !== null && "detail" in body) {
    const detail = (body as { detail: unknown }).detail;
    if (typeof detail === "string" && detail.trim() !== "") return detail;
  }
  return null;
}

/**
 * A 4xx is the server answering as designed (a wrong password, a name taken, a link expired): the
 * page shows it, so it is logged for the curious only. Anything else is a fault worth an error.
 */
export function logFailure(error: ApiError): void {
  if (error.status >= 400 && error.status < 500) console.debug(error);
  else console.error(error);
}

/** Applies the failure rules shared by fetch requests and XHR uploads. */
export function createFailure(status: number, body: unknown): ApiError {
  const error = new ApiError(status, body, readDetail(body) ?? SERVER_ERROR_MESSAGE);
  logFailure(error);
  if (status === 401) {
    // A rejected token is useless; keeping it would let the dashboard guard loop back here.
    if (getToken()) clearToken();
    const here = `${window.location.pathname}${window.location.search}`;
    navigateTo(here.startsWith(LOGIN_PATH) ? LOGIN_PATH : loginPathFor(here));
  }
  return error;
}

export function parseBodyText(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function readResponseBody(response: Response, responseType: "json" | "blob"): Promise<unknown> {
  if (response.status === 204) return null;
  if (response.ok && responseType === "blob") return response.blob();
  return parseBodyText(await response.text());
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = (options.method ?? "GET").toUpperCase();
  const url = buildUrl(path, options.query);
  const headers = buildHeaders(method, url, options.body, options.headers);
  const body =
    options.body === undefined || isRawBody(options.body)
      ? (options.body as BodyInit | undefined)
      : JSON.stringify(options.body);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body,
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    console.error(error);
    throw new ApiError(0, null, SERVER_ERROR_MESSAGE);
  }
  const payload = await readResponseBody(response, options.responseType ?? "json");
  if (!response.ok) throw createFailure(response.status, payload);
  return payload as T;
}

type BodyOptions = Omit<RequestOptions, "method" | "body">;

export const api = {
  get: <T>(path: string, options?: BodyOptions) => apiRequest<T>(path, { ...options, method: "GET" }),
  post: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: "POST", body }),
  put: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: "PUT", body }),
  patch: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: "PATCH", body }),
  delete: <T>(path: string, options?: BodyOptions) => apiRequest<T>(path, { ...options, method: "DELETE" }),
};
