import type { Database } from "../../platform/db/client.ts";
import { countFailure, deleteSubscriptions, findSubscription, markSent } from "./push.repo.ts";
import { languageOf, writeMessage } from "./push-messages.ts";
import type { PushDeliveryPayload } from "./push-notify.service.ts";
import type { PushOptions, PushSender } from "./push-sender.ts";
import type { PushSubscriptionService } from "./push-subscription.service.ts";
import type { ServerKeys } from "./server-keys.ts";

/** A subscription refused this many times in a row (never 404/410) is given up. */
const refusalsBeforeRemoval = 5;

/** A delivery the push service could not take now; the job is tried again later. */
export class PushRetryError extends Error {
  override readonly name = "PushRetryError";
}

/** Sends one queued push to one subscription and keeps the subscription list honest. */
export class PushDeliveryService {
  constructor(
    private readonly deps: {
      db: Database;
      keys: ServerKeys;
      sender: PushSender;
      subscriptions: PushSubscriptionService;
    },
  ) {}

  async deliver(payload: PushDeliveryPayload): Promise<void> {
    const { db } = this.deps;
    const row = await findSubscription(db, payload.subscriptionId);
    // Unsubscribed or removed since the push was queued: nobody to tell.
    if (!row) return;
    const message = writeMessage(payload.facts, languageOf(row.language));
    const outcome = await this.deps.sender.send(
      await this.deps.keys.get(),
      this.deps.subscriptions.open(row),
      JSON.stringify(message),
      optionsFor(message.kind, message.tag),
    );
    switch (outcome.kind) {
      case "sent":
        await markSent(db, row.id, new Date());
        return;
      case "gone":
        await deleteSubscriptions(db, [row.id]);
        return;
      case "refused":
        if ((await countFailure(db, row.id)) >= refusalsBeforeRemoval)
          await deleteSubscriptions(db, [row.id]);
        return;
      case "retry":
        await countFailure(db, row.id);
        throw new PushRetryError(outcome.detail);
    }
  }
}

function optionsFor(kind: string, tag: string): PushOptions {
  // A build or a finished upload still matters tomorrow; a test push does not.
  const day = 24 * 3600;
  if (kind === "test") return { ttlSeconds: 300, urgency: "normal" };
  // Topics are at most 32 base64url characters (RFC 8030).
  const topic = tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32);
  return { ttlSeconds: kind === "feedback" ? day : 3 * day, urgency: "normal", topic };
}
