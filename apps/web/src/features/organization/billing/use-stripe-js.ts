import { useQuery } from "@tanstack/react-query";
import { loadStripeJs } from "./load-stripe.ts";

/** Stripe.js for the instance's publishable key, loaded once a page needs it and kept. */
export function useStripeJs(publishableKey: string) {
  return useQuery({
    queryKey: ["stripe-js", publishableKey],
    queryFn: () => loadStripeJs(publishableKey),
    // loadStripe already tries the script twice; a person's "Try again" is the next attempt.
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}
