import { createHmac } from "node:crypto";

/**
 * Stripe's webhook deliveries as Stripe makes them: the event's JSON, and the `Stripe-Signature`
 * header (`t=<unix seconds>,v1=<HMAC-SHA256 of "t.payload" with the endpoint's secret>`).
 */
let eventSequence = 0;

/** An event's payload; `created` in Unix seconds. */
export function stripeEventPayload(type: string, object: object, created: number, eventId?: string): string {
  eventSequence += 1;
  return JSON.stringify({
    id: eventId ?? `evt_test_${eventSequence}_${process.pid}`,
    object: "event",
    type,
    created,
    api_version: "2026-10-28.endive",
    data: { object },
  });
}

export function stripeSignature(payload: string, secret: string, at = Math.floor(Date.now() / 1000)): string {
  const digest = createHmac("sha256", secret).update(`${at}.${payload}`).digest("hex");
  return `t=${at},v1=${digest}`;
}
