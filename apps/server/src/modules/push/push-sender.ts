import https from "node:https";
import { isIP } from "node:net";
import webPush, { WebPushError } from "web-push";
import { isPublicAddress, publicOnlyLookup } from "../../platform/net/outbound-target.ts";
import type { VapidKeys } from "./server-keys.ts";

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  /** Seconds the push service keeps the message for a device that is offline. */
  ttlSeconds: number;
  urgency: "very-low" | "low" | "normal" | "high";
  /** A message with the same topic replaces one still waiting at the push service. */
  topic?: string;
}

/**
 * What became of one push: delivered to the push service; the subscription is gone (404/410: the
 * browser unsubscribed or the subscription expired); refused for good (another 4xx: this message
 * or this subscription will never be accepted); or worth another try later (429, 5xx, network).
 */
export type PushOutcome =
  | { kind: "sent" }
  | { kind: "gone"; status: number }
  | { kind: "refused"; status: number; detail: string }
  | { kind: "retry"; detail: string; retryAfterSeconds?: number };

/**
 * Sends encrypted web pushes (RFC 8291 aes128gcm, VAPID RFC 8292) with `web-push`. Endpoints come
 * from browsers, that is from users: like webhooks, they may reach only public addresses unless
 * the instance allows private targets, checked on the address actually connected to.
 */
export class PushSender {
  private readonly agent: https.Agent;

  constructor(
    private readonly options: {
      subject: string;
      allowPrivateTargets: boolean;
      timeoutMs: number;
      /** Extra trusted certificates (a loopback push service in tests). */
      ca?: string;
    },
  ) {
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: 16,
      lookup: publicOnlyLookup(options.allowPrivateTargets) as unknown as https.AgentOptions["lookup"],
      ...(options.ca ? { ca: options.ca } : {}),
    });
  }

  async send(keys: VapidKeys, target: PushTarget, payload: string, push: PushOptions): Promise<PushOutcome> {
    const host = new URL(target.endpoint).hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !this.options.allowPrivateTargets && !isPublicAddress(host)) {
      return { kind: "refused", status: 0, detail: `${host} is not a public address` };
    }
    try {
      await webPush.sendNotification(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          vapidDetails: { subject: this.options.subject, ...keys },
          TTL: push.ttlSeconds,
          urgency: push.urgency,
          ...(push.topic ? { topic: push.topic } : {}),
          contentEncoding: "aes128gcm",
          agent: this.agent,
          timeout: this.options.timeoutMs,
        },
      );
      return { kind: "sent" };
    } catch (error) {
      return outcomeOfFailure(error);
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

function outcomeOfFailure(error: unknown): PushOutcome {
  if (!(error instanceof WebPushError)) {
    const detail = error instanceof Error ? error.message : String(error);
    // A malformed key can never be used; anything else (DNS, refused connection, timeout) may pass.
    if (/public key|auth secret|must be|invalid/i.test(detail) && !/ECONN|ETIMEDOUT|socket/i.test(detail)) {
      return { kind: "refused", status: 0, detail };
    }
    return { kind: "retry", detail };
  }
  const status = error.statusCode;
  if (status === 404 || status === 410) return { kind: "gone", status };
  if (status === 429 || status >= 500) {
    const retryAfter = Number(error.headers?.["retry-after"]);
    return {
      kind: "retry",
      detail: `push service answered ${status}`,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    };
  }
  return { kind: "refused", status, detail: `push service answered ${status}: ${error.body.slice(0, 200)}` };
}
