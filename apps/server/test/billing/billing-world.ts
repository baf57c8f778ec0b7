import { afterAll, beforeAll } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization, type TestUser } from "../helpers/org-factories.ts";
import { stripeEventPayload, stripeSignature } from "../helpers/stripe-events.ts";
import { StripePeer } from "../helpers/stripe-peer.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

export const webhookSecret = "whsec_tarmactest";
const secretKey = "sk_test_tarmac";

/** The app with Stripe configured against a loopback peer. */
export async function createBillingApp() {
  const peer = new StripePeer(secretKey);
  const url = await peer.start();
  const t = await createTestApp({
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_PUBLISHABLE_KEY: "pk_test_tarmac",
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: url,
  });
  return { t, peer };
}

/** The billing app of a test file: opened before its tests, closed after them. */
export function useBillingApp() {
  const world = {} as { t: TestApp; peer: StripePeer; call: Caller };
  beforeAll(async () => {
    const { t, peer } = await createBillingApp();
    Object.assign(world, { t, peer, call: caller(t) });
  }, 60_000);
  afterAll(async () => {
    await world.t?.close();
    await world.peer?.stop();
  });
  return world;
}

export type Method = "GET" | "POST";
export type Caller = ReturnType<typeof caller>;

export function caller(t: TestApp) {
  return (user: { token: string }, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: authHeader(user.token), ...(payload ? { payload } : {}) });
}

/** Delivers a Stripe event signed as Stripe signs it; `created` in Unix seconds. */
export function deliver(t: TestApp, type: string, object: object, created: number, eventId?: string) {
  const payload = stripeEventPayload(type, object, created, eventId);
  return t.app.inject({
    method: "POST",
    url: "/api/billing/stripe-webhook/",
    headers: {
      "content-type": "application/json",
      "stripe-signature": stripeSignature(payload, webhookSecret),
    },
    payload,
  });
}

/** An organization whose owner saved a card through the SetupIntent flow. */
export async function organizationWithCard(
  t: TestApp,
  peer: StripePeer,
  options: { plan?: string; funding?: "credit" | "prepaid"; threeDSecure?: boolean; owner?: TestUser } = {},
) {
  const { organization, owner } = await createOrganization(t, {
    plan: options.plan ?? "free",
    ...(options.owner ? { owner: options.owner } : {}),
  });
  const call = caller(t);
  const setup = await call(owner, "GET", `/api/stripe-customer/?subdomain=${organization.subdomain}`);
  if (setup.statusCode !== 200) throw new Error(setup.body);
  const secret = setup.json().client_secret as string;
  const pm = peer.confirmSetupIntent(secret, {
    brand: "visa",
    last4: "4242",
    funding: options.funding ?? "credit",
    threeDSecure: options.threeDSecure ?? false,
  });
  const saved = await call(owner, "POST", "/api/stripe-customer/", {
    token: pm,
    subdomain: organization.subdomain,
    pi_id: secret.split("_secret_")[0],
  });
  return { organization, owner, saved, pm };
}

/** Queued mails to an address (the `mail.send` jobs), oldest first. */
export async function mailsTo(t: TestApp, to: string): Promise<string[]> {
  const { rows } = await t.database.sql.executeSql(
    "select data->>'subject' as subject from pgboss.job where name = 'mail.send' and data->>'to' = $1 order by created_on, id",
    [to],
  );
  return rows.map((row) => String(row.subject));
}

export async function planOf(t: TestApp, organizationId: number): Promise<string> {
  const { rows } = await t.database.sql.executeSql(
    "select p.code from organizations o join plans p on p.id = o.plan_id where o.id = $1",
    [organizationId],
  );
  return String(rows[0]?.code);
}
