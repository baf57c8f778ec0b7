import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { missing, noSuch, parseForm, StripeFailure } from "./stripe-peer-errors.ts";

/**
 * A loopback fake of exactly the Stripe endpoints Tarmac calls, as Stripe documents them for the
 * SDK's pinned API version: form bodies (`items[0][price]=…`), the secret key as a Bearer token,
 * Stripe's errors for missing parameters and unknown ids, and idempotency keys (other parameters
 * refused, the same ones replayed). Tests act for the browser and the card's bank through its methods.
 */
type Json = Record<string, unknown>;
type Params = Record<string, unknown>;

interface Card {
  brand: string;
  last4: string;
  funding: "credit" | "debit" | "prepaid";
  /** The bank asks for 3-D Secure on payments. */
  threeDSecure?: boolean;
}

interface Price {
  id: string;
  lookup_key: string;
  unit_amount: number;
  interval: "month" | "year";
}

const now = () => Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;
const monthSeconds = 30 * 24 * 3600;

export class StripePeer {
  readonly customers = new Map<string, Json>();
  readonly setupIntents = new Map<string, Json>();
  readonly paymentMethods = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly invoices = new Map<string, Json>();
  readonly paymentIntents = new Map<string, Json>();
  readonly prices = new Map<string, Price>();
  /** Every request as Stripe received it: method, path, parameters, idempotency key. */
  readonly requests: { method: string; path: string; params: Params; idempotencyKey?: string }[] = [];
  private readonly idempotent = new Map<string, { params: string; status: number; body: Json }>();
  private server: Server | null = null;

  constructor(readonly secretKey: string) {
    const seed: [string, number, "month" | "year"][] = [
      ["tarmac_team_monthly", 2900, "month"],
      ["tarmac_team_yearly", 29000, "year"],
      ["tarmac_business_monthly", 9900, "month"],
      ["tarmac_business_yearly", 99000, "year"],
    ];
    for (const [lookupKey, amount, interval] of seed) {
      const price = { id: id("price"), lookup_key: lookupKey, unit_amount: amount, interval };
      this.prices.set(price.id, price);
    }
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  priceId(lookupKey: string): string {
    const found = [...this.prices.values()].find((price) => price.lookup_key === lookupKey);
    if (!found) throw new Error(`no price ${lookupKey}`);
    return found.id;
  }

  /** What Stripe.js does when the person confirms the SetupIntent with a card: the card is attached. */
  confirmSetupIntent(clientSecret: string, card: Card): string {
    const intent = this.setupIntents.get(clientSecret.split("_secret_")[0] ?? "");
    if (!intent) throw new Error("no such SetupIntent");
    const method = {
      id: id("pm"),
      object: "payment_method",
      type: "card",
      customer: intent.customer,
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2031, funding: card.funding },
      three_d_secure: card.threeDSecure ?? false,
    };
    this.paymentMethods.set(method.id, method);
    Object.assign(intent, { status: "succeeded", payment_method: method.id });
    return method.id;
  }

  /** A subscription as its webhook events carry it. */
  subscription(subscriptionId: string, changes: Json = {}): Json {
    const found = this.subscriptions.get(subscriptionId);
    if (!found) throw new Error(`no subscription ${subscriptionId}`);
    return structuredClone({ ...found, latest_invoice: this.invoiceIdOf(found), ...changes });
  }

  /** An invoice of the subscription as its webhook events carry it (Stripe's newest shape). */
  invoice(subscriptionId: string, changes: Json = {}): Json {
    const subscription = this.subscription(subscriptionId);
    const price = this.priceOf(subscription);
    const invoice = this.makeInvoice(
      String(subscription.customer),
      subscriptionId,
      price.unit_amount,
      "open",
    );
    return { ...invoice, ...changes };
  }

  private invoiceIdOf(subscription: Json): unknown {
    const invoice = subscription.latest_invoice;
    return invoice && typeof invoice === "object" ? (invoice as Json).id : invoice;
  }

  private priceOf(subscription: Json): Price {
    const item = ((subscription.items as Json).data as Json[])[0] as Json;
    return this.prices.get(String((item.price as Json).id)) as Price;
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://stripe.test");
    const method = request.method ?? "GET";
    const params = parseForm(method === "GET" ? url.search.slice(1) : Buffer.concat(chunks).toString());
    const key = request.headers["idempotency-key"];
    const idempotencyKey = typeof key === "string" ? key : undefined;
    this.requests.push({ method, path: url.pathname, params, ...(idempotencyKey ? { idempotencyKey } : {}) });
    const send = (status: number, body: Json, replayed = false) => {
      response.writeHead(status, {
        "content-type": "application/json",
        "request-id": id("req"),
        ...(replayed ? { "idempotent-replayed": "true" } : {}),
      });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${this.secretKey}`) {
      return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } });
    }
    const signature = `${method} ${url.pathname} ${JSON.stringify(params)}`;
    const earlier = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (earlier) {
      if (earlier.params !== signature) {
        return send(400, {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      }
      return send(earlier.status, earlier.body, true);
    }
    let status = 200;
    let body: Json;
    try {
      body = this.route(method, url.pathname, params);
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      status = error.status;
      body = { error: error.body };
    }
    if (idempotencyKey && method === "POST")
      this.idempotent.set(idempotencyKey, { params: signature, status, body });
    send(status, body);
  }

  private route(method: string, path: string, params: Params): Json {
    const parts = path.split("/").filter(Boolean);
    const [version, resource, objectId, action] = parts;
    if (version !== "v1")
      throw new StripeFailure(404, { type: "invalid_request_error", message: "Unrecognized request URL." });
    const route = `${method} ${resource}${objectId ? (action ? ` :id ${action}` : " :id") : ""}`;
    switch (route) {
      case "POST customers":
        return this.createCustomer(params);
      case "POST customers :id":
        return this.updateCustomer(String(objectId), params);
      case "POST setup_intents":
        return this.createSetupIntent(params);
      case "GET setup_intents :id":
        return this.found(this.setupIntents, "setupintent", String(objectId));
      case "GET payment_methods :id":
        return this.found(this.paymentMethods, "payment_method", String(objectId));
      case "POST payment_methods :id attach":
        return this.attach(String(objectId), params);
      case "POST payment_methods :id detach":
        return Object.assign(this.found(this.paymentMethods, "payment_method", String(objectId)), {
          customer: null,
        });
      case "GET prices":
        return this.listPrices(params);
      case "POST subscriptions":
        return this.createSubscription(params);
      case "POST subscriptions :id":
        return this.updateSubscription(String(objectId), params);
      case "GET payment_intents :id":
        return this.found(this.paymentIntents, "payment_intent", String(objectId));
      case "POST invoices :id":
        if (objectId === "create_preview") return this.preview(params);
        throw noSuch("invoice", String(objectId));
      default:
        throw new StripeFailure(404, {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${method}: ${path}).`,
        });
    }
  }

  private found(map: Map<string, Json>, kind: string, objectId: string): Json {
    const found = map.get(objectId);
    if (!found) throw noSuch(kind, objectId);
    return found;
  }

  private createCustomer(params: Params): Json {
    const customer = {
      id: id("cus"),
      object: "customer",
      name: params.name ?? null,
      email: params.email ?? null,
      metadata: params.metadata ?? {},
      invoice_settings: { default_payment_method: null as string | null },
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private updateCustomer(customerId: string, params: Params): Json {
    const customer = this.found(this.customers, "customer", customerId);
    const settings = params.invoice_settings as Json | undefined;
    const pm = settings?.default_payment_method;
    if (typeof pm === "string") {
      const method = this.found(this.paymentMethods, "PaymentMethod", pm);
      if (method.customer !== customerId) {
        throw new StripeFailure(400, {
          type: "invalid_request_error",
          message: `The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`,
        });
      }
      (customer.invoice_settings as Json).default_payment_method = pm;
    }
    return customer;
  }

  private createSetupIntent(params: Params): Json {
    if (!params.customer) throw missing("customer");
    this.found(this.customers, "customer", String(params.customer));
    const setupId = id("seti");
    const intent = {
      id: setupId,
      object: "setup_intent",
      customer: params.customer,
      client_secret: `${setupId}_secret_${randomBytes(8).toString("hex")}`,
      status: "requires_payment_method",
      payment_method: null,
      usage: params.usage ?? "off_session",
      last_setup_error: null,
    };
    this.setupIntents.set(setupId, intent);
    return intent;
  }

  private attach(methodId: string, params: Params): Json {
    if (!params.customer) throw missing("customer");
    this.found(this.customers, "customer", String(params.customer));
    const method = this.found(this.paymentMethods, "PaymentMethod", methodId);
    if (method.customer && method.customer !== params.customer) {
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        message: "The payment method you provided has already been attached to a customer.",
      });
    }
    method.customer = params.customer;
    return method;
  }

  private listPrices(params: Params): Json {
    const keys = (params.lookup_keys as string[] | undefined) ?? [];
    if (keys.length > 10)
      throw new StripeFailure(400, { type: "invalid_request_error", message: "lookup_keys: at most 10." });
    const data = [...this.prices.values()]
      .filter((price) => keys.length === 0 || keys.includes(price.lookup_key))
      .map((price) => this.priceObject(price));
    return { object: "list", url: "/v1/prices", has_more: false, data };
  }

  private priceObject(price: Price): Json {
    return {
      id: price.id,
      object: "price",
      active: true,
      currency: "usd",
      lookup_key: price.lookup_key,
      unit_amount: price.unit_amount,
      recurring: { interval: price.interval, interval_count: 1 },
      type: "recurring",
    };
  }

  private defaultCard(customerId: string): Json {
    const customer = this.found(this.customers, "customer", customerId);
    const pm = (customer.invoice_settings as Json).default_payment_method;
    if (typeof pm !== "string") {
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        message: "This customer has no attached payment source or default payment method.",
      });
    }
    return this.found(this.paymentMethods, "payment_method", pm);
  }

  private priceParam(item: Json | undefined, index: number): Price {
    if (!item?.price) throw missing(`items[${index}][price]`);
    const price = this.prices.get(String(item.price));
    if (!price) throw noSuch("price", String(item.price));
    return price;
  }

  private createSubscription(params: Params): Json {
    if (!params.customer) throw missing("customer");
    const customerId = String(params.customer);
    this.found(this.customers, "customer", customerId);
    const items = params.items as Json[] | undefined;
    if (!items?.length) throw missing("items");
    const price = this.priceParam(items[0], 0);
    const card = this.defaultCard(customerId);
    const created = now();
    const subscriptionId = id("sub");
    const needsAction = card.three_d_secure === true;
    const invoice = this.makeInvoice(
      customerId,
      subscriptionId,
      price.unit_amount,
      needsAction ? "open" : "paid",
    );
    const subscription: Json = {
      id: subscriptionId,
      object: "subscription",
      customer: customerId,
      status: needsAction ? "incomplete" : "active",
      cancel_at_period_end: false,
      created,
      metadata: params.metadata ?? {},
      items: { object: "list", data: [this.item(price, created)] },
      latest_invoice: invoice.id,
    };
    this.subscriptions.set(subscriptionId, subscription);
    return this.expanded(subscription, params);
  }

  private updateSubscription(subscriptionId: string, params: Params): Json {
    const subscription = this.found(this.subscriptions, "subscription", subscriptionId);
    if (["canceled", "incomplete_expired"].includes(String(subscription.status))) {
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        message: "A canceled subscription can only update its cancellation_details and metadata.",
      });
    }
    if (params.cancel_at_period_end !== undefined) {
      subscription.cancel_at_period_end = params.cancel_at_period_end === "true";
    }
    const items = params.items as Json[] | undefined;
    if (items?.length) {
      const current = ((subscription.items as Json).data as Json[])[0] as Json;
      if (items[0]?.id !== current.id) throw noSuch("subscription_item", String(items[0]?.id));
      const price = this.priceParam(items[0], 0);
      (subscription.items as Json).data = [
        { ...this.item(price, Number(current.current_period_start)), id: current.id },
      ];
    }
    return this.expanded(subscription, params);
  }

  private item(price: Price, start: number): Json {
    const length = price.interval === "year" ? 12 * monthSeconds : monthSeconds;
    return {
      id: id("si"),
      object: "subscription_item",
      price: this.priceObject(price),
      quantity: 1,
      current_period_start: start,
      current_period_end: start + length,
    };
  }

  private makeInvoice(
    customerId: string,
    subscriptionId: string,
    amount: number,
    status: "open" | "paid",
  ): Json {
    const invoiceId = id("in");
    const created = now();
    const intent = {
      id: id("pi"),
      object: "payment_intent",
      amount,
      currency: "usd",
      status: status === "paid" ? "succeeded" : "requires_action",
      client_secret: `pi_secret_${randomBytes(8).toString("hex")}`,
      last_payment_error: null,
    };
    this.paymentIntents.set(intent.id, intent);
    const invoice = {
      id: invoiceId,
      object: "invoice",
      customer: customerId,
      number: `TARMAC-${this.invoices.size + 1}`,
      status,
      amount_due: amount,
      currency: "usd",
      created,
      period_start: created,
      period_end: created + monthSeconds,
      hosted_invoice_url: `https://invoice.stripe.test/${invoiceId}`,
      invoice_pdf: `https://invoice.stripe.test/${invoiceId}/pdf`,
      parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId } },
      payments: {
        object: "list",
        data: [
          {
            id: id("inpay"),
            object: "invoice_payment",
            payment: { type: "payment_intent", payment_intent: intent.id },
          },
        ],
      },
    };
    this.invoices.set(invoiceId, invoice);
    return invoice;
  }

  /** `expand[]`: the latest invoice (with its payments) as an object instead of its id. */
  private expanded(subscription: Json, params: Params): Json {
    const expand = (params.expand as string[] | undefined) ?? [];
    const invoiceId = this.invoiceIdOf(subscription);
    const wantsInvoice = expand.some(
      (path) => path === "latest_invoice" || path.startsWith("latest_invoice."),
    );
    return {
      ...subscription,
      latest_invoice: wantsInvoice ? this.invoices.get(String(invoiceId)) : invoiceId,
    };
  }

  /** The next invoice: the new price for a new subscription; for a change, half a period of each price prorated. */
  private preview(params: Params): Json {
    if (!params.customer && !params.subscription) throw missing("customer");
    const details = params.subscription_details as Json | undefined;
    const items = details?.items as Json[] | undefined;
    const line = (amount: number, proration: boolean) => ({
      object: "line_item",
      amount,
      currency: "usd",
      parent: { type: "subscription_item_details", subscription_item_details: { proration } },
    });
    let lines: Json[];
    let due: number | null = null;
    if (params.subscription) {
      const subscription = this.found(this.subscriptions, "subscription", String(params.subscription));
      const current = this.priceOf(subscription);
      const item = ((subscription.items as Json).data as Json[])[0] as Json;
      due = Number(item.current_period_end);
      if (items?.length) {
        if (items[0]?.id !== item.id) throw noSuch("subscription_item", String(items[0]?.id));
        if (details?.proration_behavior !== "create_prorations")
          throw missing("subscription_details[proration_behavior]");
        const next = this.priceParam(items[0], 0);
        lines = [
          line(-current.unit_amount / 2, true),
          line(next.unit_amount / 2, true),
          line(next.unit_amount, false),
        ];
      } else {
        lines = [line(current.unit_amount, false)];
      }
    } else {
      this.found(this.customers, "customer", String(params.customer));
      if (!items?.length) throw missing("subscription_details[items]");
      lines = [line(this.priceParam(items[0], 0).unit_amount, false)];
    }
    const total = lines.reduce((sum, entry) => sum + Number(entry.amount), 0);
    const created = now();
    return {
      object: "invoice",
      id: null,
      status: "draft",
      amount_due: total,
      currency: "usd",
      created,
      period_start: created,
      period_end: created,
      next_payment_attempt: due,
      lines: { object: "list", has_more: false, data: lines },
    };
  }
}
