import http from "node:http";
import https from "node:https";
import { publicOnlyLookup } from "../../platform/net/outbound-target.ts";

/** The first bytes of a reply kept in the delivery log. */
export const keptReplyBytes = 1024;

export interface SendResult {
  /** The HTTP status, or null when no answer came (refused, timed out, bad address). */
  status: number | null;
  body: string;
  durationMs: number;
  error: string;
}

/**
 * Posts one message. Redirects are not followed (a 3xx is a failed attempt: a receiver must not
 * send us somewhere else), the address connected to must be public unless the instance allows
 * private targets, and the whole exchange has one deadline.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivateTargets: boolean },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return finish({ status: null, body: "", error: "The URL is not valid." });
    }
    const client = target.protocol === "https:" ? https : http;
    const request = client.request(
      target,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "Tarmac-Webhooks/1",
          ...headers,
        },
        lookup: publicOnlyLookup(options.allowPrivateTargets),
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (kept < keptReplyBytes) {
            chunks.push(chunk.subarray(0, keptReplyBytes - kept));
            kept += Math.min(chunk.length, keptReplyBytes - kept);
          }
          // Enough is read: the rest of a large answer is not waited for.
          if (kept >= keptReplyBytes) response.destroy();
        });
        const done = () =>
          finish({
            status: response.statusCode ?? null,
            body: Buffer.concat(chunks).toString("utf8"),
            error: "",
          });
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      const timedOut = error.name === "AbortError" || error.name === "TimeoutError";
      finish({
        status: null,
        body: "",
        error: timedOut ? `No answer within ${Math.round(options.timeoutMs / 1000)} s.` : error.message,
      });
    });
    request.end(body);
  });
}
