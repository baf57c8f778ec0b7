import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPublicAddress, OutboundTargetError, publicOnlyLookup } from "./outbound-target.ts";

export interface GuardedFetchInit {
  method?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  /** A string, URLSearchParams or bytes (encoded as fetch would, with its content type). */
  body?: ConstructorParameters<typeof Response>[0];
  signal?: AbortSignal | null;
  /** Accepted for fetch's sake; redirects are never followed whatever it says. */
  redirect?: string;
}

export interface GuardedFetchOptions {
  allowPrivateTargets: boolean;
  /** One deadline for the whole exchange, the answer's body included. */
  timeoutMs: number;
  /** The largest answer body read; a larger one fails the call. */
  maxBytes: number;
}

/**
 * `fetch` for URLs a user typed. The address checked is the one connected to (the lookup
 * refuses private answers unless the instance allows them), so a second, different DNS answer
 * cannot lead elsewhere, as it could between a check by name and fetch's own lookup. A 3xx is
 * returned as it is: following it would reach a host nobody checked. The body is read whole
 * (within `maxBytes`) before the Response is returned, so the deadline covers it too.
 */
export async function guardedFetch(
  input: string | URL,
  init: GuardedFetchInit,
  options: GuardedFetchOptions,
): Promise<Response> {
  const target = new URL(input);
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new TypeError(`${target.protocol} URLs are not fetched`);
  }
  // Node connects to a literal address without calling the lookup: it is checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, "");
  if (isIP(literal) && !options.allowPrivateTargets && !isPublicAddress(literal)) {
    throw new OutboundTargetError(`${target.hostname} is not a public address`);
  }
  const encoded = init.body == null ? null : new Response(init.body);
  const body = encoded ? Buffer.from(await encoded.arrayBuffer()) : null;
  const headers = new Headers(init.headers);
  const type = encoded?.headers.get("content-type");
  if (type && !headers.has("content-type")) headers.set("content-type", type);
  if (body) headers.set("content-length", String(body.length));
  // Node's client decompresses nothing, so the bytes are asked for as they are.
  headers.set("accept-encoding", "identity");
  init.signal?.throwIfAborted();
  return exchange(target, { method: init.method ?? "GET", headers, body, signal: init.signal }, options);
}

/** Statuses whose Response may carry no body. */
const nullBodyStatuses = new Set([101, 204, 205, 304]);

function exchange(
  target: URL,
  sent: { method: string; headers: Headers; body: Buffer | null; signal?: AbortSignal | null | undefined },
  options: GuardedFetchOptions,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    // First, so that a request refused at once (a bad header value) leaves no timer behind.
    const client = target.protocol === "https:" ? https : http;
    const request = client.request(target, {
      method: sent.method,
      headers: Object.fromEntries(sent.headers),
      lookup: publicOnlyLookup(options.allowPrivateTargets),
      agent: false,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      sent.signal?.removeEventListener("abort", aborted);
      outcome();
    };
    const fail = (error: unknown) =>
      settle(() => {
        request.destroy();
        reject(error);
      });
    const deadline = setTimeout(
      () => fail(new DOMException(`No answer within ${options.timeoutMs / 1000} s.`, "TimeoutError")),
      options.timeoutMs,
    );
    const aborted = () => fail(sent.signal?.reason);
    sent.signal?.addEventListener("abort", aborted, { once: true });
    request.on("error", fail);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) fail(new Error(`the answer is larger than ${options.maxBytes} bytes`));
        else chunks.push(chunk);
      });
      response.on("error", fail);
      response.on("end", () =>
        settle(() => {
          const status = response.statusCode ?? 0;
          const headers = new Headers();
          for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) {
            headers.append(response.rawHeaders[i] as string, response.rawHeaders[i + 1] as string);
          }
          const init = { status, statusText: response.statusMessage ?? "", headers };
          try {
            resolve(new Response(nullBodyStatuses.has(status) ? null : Buffer.concat(chunks), init));
          } catch (error) {
            reject(error);
          }
        }),
      );
    });
    request.end(sent.body ?? undefined);
  });
}
