import Stripe from "stripe";
import type { Config } from "../../config.ts";
import { AppError } from "../../http/errors.ts";

export type StripeClient = Stripe;

/** The Stripe SDK with the instance's secret key; STRIPE_API_URL points it elsewhere (tests). */
export function createStripeClient(
  config: Pick<Config, "STRIPE_SECRET_KEY" | "STRIPE_API_URL">,
): StripeClient | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const target = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(target
      ? {
          host: target.hostname,
          port: target.port || (target.protocol === "https:" ? 443 : 80),
          protocol: target.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

/**
 * What a failed Stripe call becomes (spec §8: the provider's card errors are shown): a card
 * decline or a refused request answers 400 with Stripe's own message; a failure on our side of
 * the account (key, permissions, outage) answers 502 without repeating Stripe's words, which
 * may name the key.
 */
export function stripeFailure(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  if (
    error instanceof Stripe.errors.StripeCardError ||
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripeIdempotencyError
  ) {
    return AppError.badRequest(error.message);
  }
  return new AppError(
    "payment_provider_unavailable",
    502,
    "The payment provider could not handle the request. Please try again later.",
  );
}

/** Runs a Stripe call, turning its failures into AppErrors (see stripeFailure). */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeFailure(error);
  }
}

/** The id of an expandable field, whether Stripe sent the id or the object. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

export const fromUnix = (seconds: number) => new Date(seconds * 1000);
