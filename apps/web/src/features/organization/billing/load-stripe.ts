// Stripe.js, loaded only when a billing form needs it (the pure entry injects no script on import).
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";

/**
 * How long the card form waits for Stripe.js. A blocked or black-holed script fires neither its
 * load nor its error event, and loadStripe would wait for ever.
 */
export const STRIPE_LOAD_TIMEOUT_MS = 15_000;

export class StripeUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("Stripe.js could not load", { cause });
    this.name = "StripeUnavailableError";
  }
}

/** Rejects with StripeUnavailableError when `promise` has not settled after `ms`. */
export function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StripeUnavailableError("timed out")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Stripe.js for `publishableKey`, or StripeUnavailableError when it cannot load in time. */
export async function loadStripeJs(
  publishableKey: string,
  timeoutMs = STRIPE_LOAD_TIMEOUT_MS,
): Promise<Stripe> {
  let stripe: Stripe | null;
  try {
    stripe = await settleWithin(loadStripe(publishableKey), timeoutMs);
  } catch (error) {
    throw error instanceof StripeUnavailableError ? error : new StripeUnavailableError(error);
  }
  if (!stripe) throw new StripeUnavailableError();
  return stripe;
}
