import { beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import type { StripePeer } from "../helpers/stripe-peer.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import {
  type Caller,
  caller,
  deliver,
  organizationWithCard,
  planOf,
  useBillingApp,
} from "./billing-world.ts";

describe("hosted billing: cards, subscriptions, prices", () => {
  let t: TestApp;
  let peer: StripePeer;
  let call: Caller;
  const world = useBillingApp();
  beforeAll(() => ({ t, peer, call } = world));

  it("saves a confirmed card as the default and keeps only its summary", async () => {
    const { organization, owner, saved, pm } = await organizationWithCard(t, peer);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2031, funding: "credit" },
    });
    // One customer however often the card set-up starts, and the key is only the publishable one.
    const again = await call(owner, "GET", `/api/stripe-customer/?subdomain=${organization.subdomain}`);
    expect(again.json()).toEqual({
      client_secret: expect.stringMatching(/^seti_/),
      publishable_key: "pk_test_tarmac",
    });
    const customers = [...peer.customers.values()].filter(
      (entry) => (entry.metadata as Record<string, string>).organization_id === String(organization.id),
    );
    expect(customers).toHaveLength(1);
    expect(customers[0]?.invoice_settings).toEqual({ default_payment_method: pm });
    expect(JSON.stringify(again.json())).not.toContain("sk_test");
    const overview = (await call(owner, "GET", `/api/billing/?org=${organization.id}`)).json();
    expect(overview).toMatchObject({
      enabled: true,
      plan: { code: "free" },
      status: null,
      card: { last4: "4242" },
      publishable_key: "pk_test_tarmac",
    });
  });

  it("lets the web app load Stripe.js, frame its fields and call Stripe's API, and nothing more", async () => {
    const csp = (await t.app.inject("/api/health/")).headers["content-security-policy"];
    const directives = new Map(
      String(csp)
        .split(";")
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources.join(" ")]),
    );
    expect(directives.get("script-src")).toBe("'self' https://js.stripe.com");
    expect(directives.get("frame-src")).toBe("'self' https://js.stripe.com https://hooks.stripe.com");
    expect(directives.get("connect-src")).toBe("'self' https://api.stripe.com");
    expect(directives.get("default-src")).toBe("'self'");
  });

  it("refuses a prepaid card with a clear message and detaches it", async () => {
    const { saved, pm } = await organizationWithCard(t, peer, { funding: "prepaid" });
    expect(saved.statusCode).toBe(400);
    expect(saved.json()).toEqual({
      detail: "Prepaid cards are not accepted. Please use a credit or debit card.",
    });
    expect(peer.paymentMethods.get(pm)?.customer).toBeNull();
  });

  it("answers Stripe's own message when Stripe refuses the card", async () => {
    const { organization, owner } = await createOrganization(t);
    const response = await call(owner, "POST", "/api/stripe-customer/", {
      token: "pm_doesnotexist",
      subdomain: organization.subdomain,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: "No such payment_method: 'pm_doesnotexist'" });
  });

  it("previews an upgrade with proration, then upgrades once Stripe confirms", async () => {
    const { organization, owner } = await organizationWithCard(t, peer);
    const team = await call(owner, "POST", "/api/billing/subscription/", {
      org: organization.id,
      plan: "team",
      interval: "month",
    });
    expect(team.statusCode).toBe(200);
    expect(team.json()).toMatchObject({
      requires_action: false,
      billing: { plan: { code: "team" }, interval: "month", status: "active", next_charge: { amount: 29 } },
    });
    const businessId = (await call(owner, "GET", "/api/tariffs/"))
      .json()
      .find((plan: { code: string }) => plan.code === "business").id;
    const price = await call(
      owner,
      "GET",
      `/api/month_price/${businessId}/?org=${organization.id}&interval=month`,
    );
    expect(price.json()).toEqual({
      plan: { id: businessId, code: "business", title: "Business" },
      interval: "month",
      currency: "usd",
      current_monthly: 29,
      new_monthly: 99,
      proration: 35,
      next_invoice_total: 134,
      next_invoice_date: expect.any(String),
    });
    const yearly = (
      await call(owner, "GET", `/api/month_price/${businessId}/?org=${organization.id}&interval=year`)
    ).json();
    expect(yearly.new_monthly).toBe(82.5);
    const upgraded = await call(owner, "POST", "/api/billing/subscription/", {
      org: organization.id,
      plan: businessId,
      interval: "month",
    });
    expect(upgraded.json()).toMatchObject({ billing: { plan: { code: "business" } } });
    const update = peer.requests.findLast((request) => request.path.startsWith("/v1/subscriptions/"));
    expect(update?.params).toMatchObject({ proration_behavior: "create_prorations" });
    expect(await planOf(t, organization.id)).toBe("business");

    const cancelled = await call(owner, "POST", "/api/billing/subscription/cancel/", {
      org: organization.id,
    });
    expect(cancelled.json()).toMatchObject({
      cancel_at_period_end: true,
      plan: { code: "business" },
      next_charge: null,
    });
    const resumed = await call(owner, "POST", "/api/billing/subscription/resume/", { org: organization.id });
    expect(resumed.json()).toMatchObject({ cancel_at_period_end: false });
  });

  it("refuses a change to a plan the organization's usage is over, naming what is over", async () => {
    const { organization, owner } = await organizationWithCard(t, peer, { plan: "business" });
    await t.database.sql.executeSql(
      "update organizations set projects_count = 30, space_used_bytes = $2 where id = $1",
      [organization.id, 60_000 * 1024 * 1024],
    );
    const response = await call(owner, "POST", "/api/billing/subscription/", {
      org: organization.id,
      plan: "team",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe("plan_limits_exceeded");
    expect(response.json().detail).toContain("projects: 30 used, 25 allowed");
    expect(response.json().detail).toContain("space: 60000 MB used, 51200 MB allowed");
    expect(await planOf(t, organization.id)).toBe("business");
  });

  it("answers 3-D Secure with the payment's client secret and changes the plan only when Stripe confirms", async () => {
    const { organization, owner } = await organizationWithCard(t, peer, { threeDSecure: true });
    const response = await call(owner, "POST", "/api/billing/subscription/", {
      org: organization.id,
      plan: "team",
    });
    expect(response.json()).toEqual({
      requires_action: true,
      client_secret: expect.stringMatching(/^pi_secret_/),
    });
    expect(await planOf(t, organization.id)).toBe("free");
    const subscriptionId = [...peer.subscriptions.values()].find(
      (entry) => (entry.metadata as Record<string, string>).organization_id === String(organization.id),
    )?.id as string;
    const confirmed = await deliver(
      t,
      "customer.subscription.updated",
      peer.subscription(subscriptionId, { status: "active" }),
      Math.floor(Date.now() / 1000) + 5,
    );
    expect(confirmed.statusCode).toBe(200);
    expect(await planOf(t, organization.id)).toBe("team");
  });

  it("does not sell free or unknown plans and needs a card first", async () => {
    const { organization, owner } = await createOrganization(t);
    const free = await call(owner, "POST", "/api/billing/subscription/", {
      org: organization.id,
      plan: "free",
    });
    expect(free.json()).toEqual({ plan: ["The Free plan is not sold."] });
    const unknown = await call(owner, "POST", "/api/billing/subscription/", {
      org: organization.id,
      plan: "gold",
    });
    expect(unknown.statusCode).toBe(400);
    const noCard = await call(owner, "POST", "/api/billing/subscription/", {
      org: organization.id,
      plan: "team",
    });
    expect(noCard.json()).toEqual({ detail: "Add a card before choosing a plan." });
  });

  it("answers 404 to another organization's owner and 403 to members who may not", async () => {
    const { organization, owner } = await organizationWithCard(t, peer);
    const stranger = (await createOrganization(t)).owner;
    const admin = await addMember(t, organization.id, 2);
    const tester = await addMember(t, organization.id, 5);
    const org = organization.id;
    const sub = organization.subdomain;
    const calls: [string, string, object?][] = [
      ["GET", `/api/stripe-customer/?subdomain=${sub}`],
      ["POST", "/api/stripe-customer/", { token: "pm_x", subdomain: sub }],
      ["GET", `/api/billing/?org=${org}`],
      ["POST", "/api/billing/subscription/", { org, plan: "team" }],
      ["POST", "/api/billing/subscription/cancel/", { org }],
      ["POST", "/api/billing/subscription/resume/", { org }],
      ["GET", `/api/month_price/2/?org=${org}`],
      ["GET", `/api/invoice-history/?org=${org}`],
      ["GET", `/api/invoice-history-w-pdf/?org=${org}`],
    ];
    for (const [method, url, payload] of calls) {
      const answer = await call(stranger, method as "GET", url, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect((await call(tester, method as "GET", url, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    // Admins read billing but do not change it.
    expect((await call(admin, "GET", `/api/billing/?org=${org}`)).statusCode).toBe(200);
    expect((await call(admin, "GET", `/api/invoice-history/?org=${org}`)).statusCode).toBe(200);
    expect((await call(admin, "GET", `/api/stripe-customer/?subdomain=${sub}`)).statusCode).toBe(403);
    expect((await call(owner, "GET", "/api/billing/?org=999999")).statusCode).toBe(404);
  });
});

describe("billing without Stripe", () => {
  it("says billing is off and refuses hosted calls", async () => {
    const t = await createTestApp();
    try {
      const owner = await createUserWithToken(t);
      const { organization } = await createOrganization(t, { owner, plan: "unlimited" });
      const call = caller(t);
      expect((await call(owner, "GET", `/api/billing/?org=${organization.id}`)).json()).toEqual({
        enabled: false,
      });
      const setup = await call(owner, "GET", `/api/stripe-customer/?subdomain=${organization.subdomain}`);
      expect(setup.statusCode).toBe(404);
      expect(setup.json()).toEqual({ detail: "Billing is not enabled on this instance." });
      const hook = await t.app.inject({ method: "POST", url: "/api/billing/stripe-webhook/", payload: {} });
      expect(hook.statusCode).toBe(404);
      expect(hook.headers["content-security-policy"]).not.toContain("stripe.com");
    } finally {
      await t.close();
    }
  }, 60_000);
});
