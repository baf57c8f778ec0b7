import type { BillingInterval } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { callStripe, type StripeClient } from "./stripe-client.ts";

/** A Stripe price of one of our plans. */
export interface PlanPrice {
  id: string;
  planCode: string;
  interval: BillingInterval;
  unitAmount: number;
  currency: string;
}

const keptForMs = 5 * 60 * 1000;

/** `tarmac_<plan code>_monthly` / `_yearly`: how the Stripe account names the price of each plan. */
export function lookupKeyOf(planCode: string, interval: BillingInterval): string {
  return `tarmac_${planCode}_${interval === "year" ? "yearly" : "monthly"}`;
}

/** The plan and interval a lookup key names, or null for a price that is not ours. */
export function parseLookupKey(
  key: string | null | undefined,
): { planCode: string; interval: BillingInterval } | null {
  const match = /^tarmac_([a-z0-9_-]+)_(monthly|yearly)$/.exec(key ?? "");
  if (!match?.[1]) return null;
  return { planCode: match[1], interval: match[2] === "yearly" ? "year" : "month" };
}

/**
 * The prices of the paid plans, found by lookup key and kept a few minutes per process (a
 * price changed in Stripe's dashboard is seen within that time; nothing else depends on it).
 */
export class PlanPrices {
  private kept: { at: number; prices: Promise<Map<string, PlanPrice>> } | null = null;

  constructor(
    private readonly stripe: StripeClient,
    private readonly planCodes: () => Promise<string[]>,
  ) {}

  /** The price of the plan at the interval; 400 when the Stripe account has none. */
  async get(planCode: string, interval: BillingInterval): Promise<PlanPrice> {
    const price = (await this.all()).get(lookupKeyOf(planCode, interval));
    if (!price) {
      throw AppError.badRequest(
        `The ${planCode} plan cannot be bought ${interval === "year" ? "yearly" : "monthly"} here.`,
      );
    }
    return price;
  }

  private all(): Promise<Map<string, PlanPrice>> {
    if (this.kept && Date.now() - this.kept.at < keptForMs) return this.kept.prices;
    const prices = this.load();
    this.kept = { at: Date.now(), prices };
    // A failed load is not kept: the next request asks again.
    prices.catch(() => {
      if (this.kept?.prices === prices) this.kept = null;
    });
    return prices;
  }

  private async load(): Promise<Map<string, PlanPrice>> {
    const keys = (await this.planCodes()).flatMap((code) => [
      lookupKeyOf(code, "month"),
      lookupKeyOf(code, "year"),
    ]);
    const found = new Map<string, PlanPrice>();
    // Stripe takes at most 10 lookup keys a request.
    for (let start = 0; start < keys.length; start += 10) {
      const lookupKeys = keys.slice(start, start + 10);
      const list = await callStripe(() =>
        this.stripe.prices.list({ lookup_keys: lookupKeys, active: true, limit: 100 }),
      );
      for (const price of list.data) {
        const named = parseLookupKey(price.lookup_key);
        if (!named || price.unit_amount === null) continue;
        found.set(lookupKeyOf(named.planCode, named.interval), {
          id: price.id,
          ...named,
          unitAmount: price.unit_amount,
          currency: price.currency,
        });
      }
    }
    return found;
  }
}
