/**
 * Owns an organization's Stripe customer and its card (the `billing_customers` table): card
 * set-up through a SetupIntent, the confirmed PaymentMethod made the default, prepaid cards
 * refused (spec §4, §5). Only a summary of the card is kept.
 */
import type { CardSetup, CardSummary, StripeCustomerInput } from "@tarmac/contracts";
import type Stripe from "stripe";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Caller, MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { type CustomerRow, findCustomer, insertCustomer, updateCustomer } from "./billing.repo.ts";
import type { BillingAccess } from "./billing-access.ts";
import { callStripe, idOf, type StripeClient } from "./stripe-client.ts";

export const prepaidRefused = "Prepaid cards are not accepted. Please use a credit or debit card.";

export interface BillingCardDeps {
  db: Database;
  stripe: StripeClient;
  access: BillingAccess;
  membership: MembershipService;
  organizations: OrganizationService;
  publishableKey: string;
  /** Names this instance in idempotency keys, so instances sharing a Stripe account never collide. */
  instance: string;
}

export function cardOf(customer: CustomerRow | null): CardSummary | null {
  if (!customer?.defaultPaymentMethod || !customer.cardLast4) return null;
  return {
    brand: customer.cardBrand ?? "",
    last4: customer.cardLast4,
    exp_month: customer.cardExpMonth ?? 0,
    exp_year: customer.cardExpYear ?? 0,
    funding: customer.cardFunding ?? "",
  };
}

export class BillingCardService {
  constructor(private readonly deps: BillingCardDeps) {}

  /** Starts saving a card: the customer (made once) and a SetupIntent for Stripe.js to confirm. */
  async setup(caller: Caller, subdomain: string): Promise<CardSetup> {
    const organizationId = await this.deps.access.organizationOf(caller, { subdomain }, "billing:manage");
    const customer = await this.ensureCustomer(organizationId);
    const intent = await callStripe(() =>
      this.deps.stripe.setupIntents.create({
        customer: customer.customerId,
        allowed_payment_method_types: ["card"],
        usage: "off_session",
        metadata: { organization_id: String(organizationId) },
      }),
    );
    if (!intent.client_secret) throw AppError.badRequest("The payment provider gave no client secret.");
    return { client_secret: intent.client_secret, publishable_key: this.deps.publishableKey };
  }

  /** Makes the confirmed card the customer's default; a prepaid card is detached and refused. */
  async save(caller: Caller, input: StripeCustomerInput): Promise<{ card: CardSummary }> {
    const organizationId = await this.deps.access.organizationOf(
      caller,
      { subdomain: input.subdomain },
      "billing:manage",
    );
    const customer = await this.ensureCustomer(organizationId);
    const { stripe } = this.deps;
    if (input.pi_id) await this.checkSetupIntent(customer.customerId, input.pi_id, input.token);
    const method = await callStripe(() => stripe.paymentMethods.retrieve(input.token));
    const attachedTo = idOf(method.customer);
    if (attachedTo && attachedTo !== customer.customerId)
      throw AppError.badRequest("No such payment method.");
    if (!method.card) throw AppError.badRequest("Only cards can pay for plans.");
    if (method.card.funding === "prepaid") {
      if (attachedTo) await callStripe(() => stripe.paymentMethods.detach(method.id));
      throw AppError.badRequest(prepaidRefused);
    }
    if (!attachedTo) {
      await callStripe(() => stripe.paymentMethods.attach(method.id, { customer: customer.customerId }));
    }
    await callStripe(() =>
      stripe.customers.update(customer.customerId, {
        invoice_settings: { default_payment_method: method.id },
      }),
    );
    const card = summaryOf(method.card);
    await updateCustomer(this.deps.db, organizationId, {
      defaultPaymentMethod: method.id,
      cardBrand: card.brand,
      cardLast4: card.last4,
      cardExpMonth: card.exp_month,
      cardExpYear: card.exp_year,
      cardFunding: card.funding,
    });
    const previous = customer.defaultPaymentMethod;
    // The card it replaces is of no more use; a failure here leaves only an unused card behind.
    if (previous && previous !== method.id) {
      await stripe.paymentMethods.detach(previous).catch(() => undefined);
    }
    return { card };
  }

  /** The organization's customer, created at Stripe the first time (once, however many ask at once). */
  async ensureCustomer(organizationId: number): Promise<CustomerRow> {
    const known = await findCustomer(this.deps.db, organizationId);
    if (known) return known;
    const [title, owner] = await Promise.all([
      this.deps.organizations.getTitle(organizationId),
      this.deps.membership.findOwner(organizationId),
    ]);
    const created = await callStripe(() =>
      this.deps.stripe.customers.create(
        {
          name: title,
          ...(owner ? { email: owner.email } : {}),
          metadata: { organization_id: String(organizationId) },
        },
        // Requests racing to create the customer get the same one from Stripe.
        { idempotencyKey: `tarmac-${this.deps.instance}-customer-${organizationId}` },
      ),
    );
    const kept = await insertCustomer(this.deps.db, organizationId, created.id);
    if (!kept) throw AppError.notFound();
    return kept;
  }

  /** The SetupIntent must be this customer's, succeeded, and have confirmed this very card. */
  private async checkSetupIntent(customerId: string, setupIntentId: string, paymentMethodId: string) {
    const intent = await callStripe(() => this.deps.stripe.setupIntents.retrieve(setupIntentId));
    if (idOf(intent.customer) !== customerId || idOf(intent.payment_method) !== paymentMethodId) {
      throw AppError.badRequest("The card set-up does not belong to this card.");
    }
    if (intent.status !== "succeeded") {
      throw AppError.badRequest(intent.last_setup_error?.message ?? "The card set-up is not complete.");
    }
  }
}

function summaryOf(card: Stripe.PaymentMethod.Card): CardSummary {
  return {
    brand: card.brand,
    last4: card.last4,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    funding: card.funding,
  };
}
