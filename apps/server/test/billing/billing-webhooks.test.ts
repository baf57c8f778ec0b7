import { beforeAll, describe, expect, it } from "vitest";
import type { StripePeer } from "../helpers/stripe-peer.ts";
import type { TestApp } from "../helpers/test-app.ts";
import {
  type Caller,
  deliver,
  mailsTo,
  organizationWithCard,
  planOf,
  useBillingApp,
} from "./billing-world.ts";

describe("Stripe's webhooks", () => {
  let t: TestApp;
  let peer: StripePeer;
  let call: Caller;
  const world = useBillingApp();
  beforeAll(() => ({ t, peer, call } = world));

  /** An organization subscribed to the team plan, and its subscription's id. */
  async function subscribed() {
    const world = await organizationWithCard(t, peer);
    const response = await call(world.owner, "POST", "/api/billing/subscription/", {
      org: world.organization.id,
      plan: "team",
    });
    expect(response.json()).toMatchObject({ billing: { plan: { code: "team" } } });
    const subscription = [...peer.subscriptions.values()].find(
      (entry) => (entry.metadata as Record<string, string>).organization_id === String(world.organization.id),
    );
    return { ...world, subscriptionId: subscription?.id as string };
  }

  async function gracePeriodJobs(organizationId: number) {
    const { rows } = await t.database.sql.executeSql(
      "select name, data - '$request_id' as data from pgboss.job where name like 'billing.grace-%' and (data->>'organizationId')::int = $1 order by name",
      [organizationId],
    );
    return rows as { name: string; data: { organizationId: number; graceEndsAt: string } }[];
  }

  it("refuses a delivery whose signature is not Stripe's", async () => {
    const payload = JSON.stringify({
      id: "evt_forged",
      object: "event",
      type: "invoice.paid",
      data: { object: {} },
    });
    const response = await t.app.inject({
      method: "POST",
      url: "/api/billing/stripe-webhook/",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=deadbeef" },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: "The Stripe signature of this request is not valid." });
    const unsigned = await t.app.inject({
      method: "POST",
      url: "/api/billing/stripe-webhook/",
      headers: { "content-type": "application/json" },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
  });

  it("applies each event once and never lets an older event overwrite newer state", async () => {
    const { organization, owner, subscriptionId } = await subscribed();
    // Event times after the confirmed answer of the subscription, whenever the test runs.
    const start = Math.floor(Date.now() / 1000) + 60;
    const business = peer.priceId("tarmac_business_monthly");
    const onBusiness = peer.subscription(subscriptionId);
    const item = ((onBusiness.items as { data: Record<string, unknown>[] }).data[0] ?? {}) as Record<
      string,
      unknown
    >;
    item.price = { ...(item.price as object), id: business, lookup_key: "tarmac_business_monthly" };
    const newer = await deliver(t, "customer.subscription.updated", onBusiness, start + 20, "evt_newer");
    expect(newer.statusCode).toBe(200);
    expect(await planOf(t, organization.id)).toBe("business");
    // The same event again, then an older one (still naming the team plan), arrive late.
    expect(
      (await deliver(t, "customer.subscription.updated", onBusiness, start + 20, "evt_newer")).statusCode,
    ).toBe(200);
    const older = await deliver(
      t,
      "customer.subscription.updated",
      peer.subscription(subscriptionId),
      start + 10,
    );
    expect(older.statusCode).toBe(200);
    expect(await planOf(t, organization.id)).toBe("business");
    const { rows } = await t.database.sql.executeSql(
      "select action, details->>'to' as plan from organization_activity where organization_id = $1 order by id",
      [organization.id],
    );
    expect(rows).toEqual([
      { action: "plan.changed", plan: "team" },
      { action: "plan.changed", plan: "business" },
    ]);
    // Deleted is final: a late "updated" does not bring the subscription back.
    await deliver(
      t,
      "customer.subscription.deleted",
      peer.subscription(subscriptionId, { status: "canceled" }),
      start + 30,
    );
    expect(await planOf(t, organization.id)).toBe("free");
    await deliver(t, "customer.subscription.updated", onBusiness, start + 40);
    expect(await planOf(t, organization.id)).toBe("free");
    expect((await call(owner, "GET", `/api/billing/?org=${organization.id}`)).json()).toMatchObject({
      status: null,
    });
  });

  it("gives a failed payment a grace period with mails, then the free plan's limits, and a payment restores the plan", async () => {
    const { organization, owner, subscriptionId } = await subscribed();
    const start = Math.floor(Date.now() / 1000) + 60;
    const failed = peer.invoice(subscriptionId, { status: "open", attempt_count: 1 });
    await deliver(t, "invoice.payment_failed", failed, start + 50);
    await deliver(
      t,
      "customer.subscription.updated",
      peer.subscription(subscriptionId, { status: "past_due" }),
      start + 51,
    );
    // A second failed attempt during the grace period starts nothing new.
    await deliver(t, "invoice.payment_failed", { ...failed, attempt_count: 2 }, start + 52);
    expect(await planOf(t, organization.id)).toBe("team");
    const graceEndsAt = new Date((start + 50) * 1000 + 7 * 24 * 3600 * 1000).toISOString();
    expect((await call(owner, "GET", `/api/billing/?org=${organization.id}`)).json()).toMatchObject({
      status: "past_due",
      grace_ends_at: graceEndsAt,
    });
    expect(await mailsTo(t, owner.user.email)).toEqual([
      `Tarmac: the payment for ${organization.title} failed`,
    ]);
    const jobs = await gracePeriodJobs(organization.id);
    expect(jobs.map((job) => job.name)).toEqual(["billing.grace-end", "billing.grace-reminder"]);
    const grace = { organizationId: organization.id, graceEndsAt };
    expect(jobs.map((job) => job.data)).toEqual([grace, grace]);

    const context = { jobId: "test", retryCount: 0 };
    await t.job("billing.grace-reminder").handler(grace, context);
    await t.job("billing.grace-end").handler(grace, context);
    // A retried run finds its grace period over and does nothing more.
    await t.job("billing.grace-end").handler(grace, context);
    expect(await planOf(t, organization.id)).toBe("free");
    const usage = (await call(owner, "GET", `/api/organization/usage/?org=${organization.id}`)).json();
    expect(usage).toMatchObject({ space_limit: 2048, build_limit: 100, projects_limit: 3, user_limit: 5 });
    expect(await mailsTo(t, owner.user.email)).toEqual([
      `Tarmac: the payment for ${organization.title} failed`,
      `Tarmac: ${organization.title} moves to the free plan's limits in two days`,
      `Tarmac: ${organization.title} is on the free plan's limits`,
    ]);
    expect((await call(owner, "GET", `/api/billing/?org=${organization.id}`)).json()).toMatchObject({
      plan: { code: "free" },
      subscribed_plan: { code: "team" },
      grace_ends_at: null,
    });

    await deliver(t, "invoice.paid", { ...failed, status: "paid" }, start + 60);
    expect(await planOf(t, organization.id)).toBe("team");
    const { rows } = await t.database.sql.executeSql(
      "select details->>'to' as plan, details->>'source' as source, actor_user_id from organization_activity where organization_id = $1 order by id",
      [organization.id],
    );
    expect(rows.map((row) => row.plan)).toEqual(["team", "free", "team"]);
    expect(rows.every((row) => row.source === "billing")).toBe(true);
  });

  it("keeps invoices from webhooks and pages them from 1, each with its PDF where asked", async () => {
    const { organization, owner, subscriptionId } = await subscribed();
    const start = Math.floor(Date.now() / 1000) + 60;
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const invoice = peer.invoice(subscriptionId, { created: start - 1000 + index });
      ids.push(String(invoice.id));
      await deliver(t, "invoice.finalized", invoice, start + 100 + index);
      await deliver(t, "invoice.paid", { ...invoice, status: "paid" }, start + 200 + index);
    }
    // A late "finalized" does not turn a paid invoice back to open.
    await deliver(t, "invoice.finalized", peer.invoices.get(ids[11] as string) as object, start + 150);
    const first = (await call(owner, "GET", `/api/invoice-history/?org=${organization.id}&page=1`)).json();
    expect(first.count).toBe(12);
    expect(first.results).toHaveLength(10);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`http://tarmac.test/api/invoice-history/?org=${organization.id}&page=2`);
    expect(first.results[0]).toEqual({
      id: ids[11],
      number: expect.any(String),
      status: "paid",
      amount: 29,
      currency: "usd",
      period_start: expect.any(String),
      period_end: expect.any(String),
      created: new Date((start - 1000 + 11) * 1000).toISOString(),
      hosted_invoice_url: `https://invoice.stripe.test/${ids[11]}`,
    });
    const second = (await call(owner, "GET", `/api/invoice-history/?org=${organization.id}&page=2`)).json();
    expect(second.results.map((invoice: { id: string }) => invoice.id)).toEqual([ids[1], ids[0]]);
    const withPdf = (await call(owner, "GET", `/api/invoice-history-w-pdf/?org=${organization.id}`)).json();
    expect(withPdf.results[0].invoice_pdf).toBe(`https://invoice.stripe.test/${ids[11]}/pdf`);
    const one = await call(owner, "GET", `/api/invoice-history/${ids[0]}/`);
    expect(one.json()).toMatchObject({
      id: ids[0],
      invoice_pdf: `https://invoice.stripe.test/${ids[0]}/pdf`,
    });
    const stranger = (await organizationWithCard(t, peer)).owner;
    expect((await call(stranger, "GET", `/api/invoice-history/${ids[0]}/`)).statusCode).toBe(404);
    expect((await call(owner, "GET", "/api/invoice-history/in_missing/")).statusCode).toBe(404);
  });
});
