/**
 * Owns the browsers' push subscriptions and the instance's push key pair: who may be woken, and
 * with which keys. What is pushed, and when, is push-notify.service.ts.
 */
import { createHash } from "node:crypto";
import type { PushSubscriptionInput, PushSubscriptionRecord } from "@tarmac/contracts";
import { pushSubscriptionInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { enforceRateLimit } from "../../http/throttle/throttle.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { assertPublicHost, OutboundTargetError } from "../../platform/net/outbound-target.ts";
import { isoOrNull, type PersonalDataSection } from "../../platform/personal-data.ts";
import {
  deleteSubscriptionOfUser,
  deleteSubscriptions,
  listSubscriptionsOfUser,
  type PushSubscriptionRow,
  upsertSubscription,
} from "./push.repo.ts";
import type { PushTarget } from "./push-sender.ts";
import type { ServerKeys } from "./server-keys.ts";

/** Browsers (devices) one person may keep subscribed; subscribing one more drops the oldest. */
export const subscriptionsPerUser = 20;
/** Subscribe calls one person may make in an hour (a browser renews its subscription rarely). */
const subscribeCallsPerHour = 30;
const hourMs = 3600_000;

export const notSubscribedMessage = "Not subscribed to push notifications.";

export function endpointHash(endpoint: string): string {
  return createHash("sha256").update(endpoint).digest("hex");
}

export class PushSubscriptionService {
  constructor(
    private readonly deps: {
      db: Database;
      box: SecretBox;
      keys: ServerKeys;
      allowPrivateTargets: boolean;
    },
  ) {}

  async publicKey(): Promise<string> {
    return (await this.deps.keys.get()).publicKey;
  }

  async subscribe(userId: number, raw: PushSubscriptionInput): Promise<PushSubscriptionRecord> {
    const input = pushSubscriptionInput.parse(raw);
    const keyErrors = {
      ...(decodedLength(input.keys.p256dh) === 65 && input.keys.p256dh.startsWith("B")
        ? {}
        : { "keys.p256dh": ["Must be an uncompressed P-256 public key (65 bytes, base64url)."] }),
      ...(decodedLength(input.keys.auth) === 16
        ? {}
        : { "keys.auth": ["Must be a 16-byte authentication secret (base64url)."] }),
    };
    if (Object.keys(keyErrors).length > 0) throw AppError.validation(keyErrors);
    const endpoint = new URL(input.endpoint);
    try {
      await assertPublicHost(endpoint.hostname, this.deps.allowPrivateTargets);
    } catch (error) {
      if (error instanceof OutboundTargetError || isDnsFailure(error)) {
        throw AppError.validation({ endpoint: ["The push service's address is not reachable from here."] });
      }
      throw error;
    }
    await enforceRateLimit(this.deps.db, `push-subscribe:${userId}`, subscribeCallsPerHour, hourMs);
    const target: PushTarget = { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth };
    return this.deps.db.transaction(async (tx) => {
      const saved = await upsertSubscription(tx, {
        userId,
        endpointHash: endpointHash(input.endpoint),
        sealed: this.deps.box.seal(JSON.stringify(target)),
        service: endpoint.host,
        language: input.language,
      });
      const mine = await listSubscriptionsOfUser(tx, userId);
      const excess = mine.length - subscriptionsPerUser;
      if (excess > 0) {
        const oldest = mine.filter((row) => row.id !== saved.id).slice(0, excess);
        await deleteSubscriptions(
          tx,
          oldest.map((row) => row.id),
        );
      }
      return present(saved);
    });
  }

  /** Removes this browser's subscription; 404 with the spec's message when it has none here. */
  async unsubscribe(userId: number, endpoint: string): Promise<void> {
    const removed = await deleteSubscriptionOfUser(this.deps.db, userId, endpointHash(endpoint));
    if (!removed) throw AppError.notFound(notSubscribedMessage);
  }

  async list(userId: number): Promise<PushSubscriptionRecord[]> {
    return (await listSubscriptionsOfUser(this.deps.db, userId)).map(present);
  }

  /** The endpoint and keys of a stored subscription. */
  open(row: PushSubscriptionRow): PushTarget {
    return JSON.parse(this.deps.box.open(row.sealed)) as PushTarget;
  }

  readonly personalData: PersonalDataSection = {
    name: "push_subscriptions",
    load: async (person) => (await this.list(person.id)).map((record) => ({ ...record })),
  };
}

function present(row: PushSubscriptionRow): PushSubscriptionRecord {
  return {
    id: row.id,
    service: row.service,
    language: row.language === "de" || row.language === "ru" ? row.language : "en",
    created_at: row.createdAt.toISOString(),
    last_sent_at: isoOrNull(row.lastSentAt),
  };
}

function decodedLength(base64Url: string): number {
  return Buffer.from(base64Url, "base64url").length;
}

function isDnsFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA";
}
