import type { Settings } from "./config.ts";
import { CliError, exitCodes } from "./exit-codes.ts";

/** What the server answers on failure: `detail`, an upload `error_code`, or per-field messages. */
type ErrorBody = { detail?: unknown; error_code?: unknown } & Record<string, unknown>;

function describeBody(body: ErrorBody): string {
  if (typeof body.detail === "string") return body.detail;
  const fields = Object.entries(body).filter(([, value]) => Array.isArray(value));
  if (fields.length > 0)
    return fields.map(([name, value]) => `${name}: ${(value as unknown[]).join(" ")}`).join("; ");
  return JSON.stringify(body);
}

/** Maps a failed answer to the exit code a script can act on (see exit-codes.ts). */
export function failureOf(status: number, text: string, notFound = "not found"): CliError {
  let body: ErrorBody = {};
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    body = { detail: text.trim().slice(0, 300) || `HTTP ${status}` };
  }
  const code = body.error_code;
  if (typeof code === "number" && code >= 1 && code <= 10) return new CliError(code, describeBody(body));
  if (status === 401 || status === 403)
    return new CliError(exitCodes.auth, `not allowed (${status}): ${describeBody(body)}`);
  if (status === 404) return new CliError(exitCodes.auth, notFound);
  if (status === 429 || status === 502 || status === 503 || status === 504)
    return new CliError(exitCodes.unavailable, `server unavailable (${status}): ${describeBody(body)}`);
  if (status >= 500) return new CliError(exitCodes.server, `server error (${status}): ${describeBody(body)}`);
  return new CliError(exitCodes.server, `request refused (${status}): ${describeBody(body)}`);
}

export function networkFailure(url: string, error: unknown): CliError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new CliError(exitCodes.unavailable, `cannot reach ${new URL(url).origin}: ${reason}`);
}

export interface Api {
  settings: Settings;
  get<T>(path: string): Promise<T>;
  send<T>(method: string, path: string, body: unknown, notFound?: string): Promise<T>;
}

export function createApi(settings: Settings): Api {
  async function request<T>(method: string, path: string, init: RequestInit, notFound?: string): Promise<T> {
    const url = `${settings.url}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        method,
        headers: { Authorization: `Token ${settings.apiKey}`, Accept: "application/json", ...init.headers },
      });
    } catch (error) {
      throw networkFailure(url, error);
    }
    const text = await response.text();
    if (!response.ok) throw failureOf(response.status, text, notFound ?? `not found: ${method} ${path}`);
    return (text ? JSON.parse(text) : null) as T;
  }
  return {
    settings,
    get: (path) => request("GET", path, {}),
    send: (method, path, body, notFound) =>
      request(
        method,
        path,
        body instanceof FormData
          ? { body }
          : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } },
        notFound,
      ),
  };
}

interface Page<T> {
  next: string | null;
  results: T[];
}

/** Every item of a paged list, 100 at a time. */
export async function allPages<T>(api: Api, path: string): Promise<T[]> {
  const items: T[] = [];
  const joiner = path.includes("?") ? "&" : "?";
  for (let page = 1; ; page += 1) {
    const answer = await api.get<Page<T>>(`${path}${joiner}page_size=100&page=${page}`);
    items.push(...answer.results);
    if (!answer.next || answer.results.length === 0) return items;
  }
}
