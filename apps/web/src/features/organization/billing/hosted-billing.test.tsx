import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { EnabledBilling } from "../../../api/billing.ts";
import { makeOrg, makeProfile } from "../../../test/account-fixtures.ts";
import { makeBilling, makeInvoice, makeMonthPrice } from "../../../test/billing-fixtures.ts";
import { installFakeStripeJs } from "../../../test/fake-stripe-js.ts";
import { makeTariff, makeUsage, TARIFFS } from "../../../test/plan-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../../test/render.tsx";

const BUSINESS = makeTariff({ id: 3, code: "business", title: "Business", price: 99, projects_limit: 100 });
const team = { id: 2, code: "team", title: "Team" };
const business = { id: 3, code: "business", title: "Business" };
const ok = (body: unknown): ApiReply => ({ status: 200, body });
const page = (results: unknown[], count = results.length) =>
  ok({ count, next: null, previous: null, results });

/** An instance with Stripe: organization 7's billing, prices of Team and Business, its invoices. */
function serve(
  billing: EnabledBilling | (() => EnabledBilling),
  replies: Record<string, unknown> = {},
  role = 1,
) {
  const overview = typeof billing === "function" ? billing : () => billing;
  return stubApi({
    "GET /api/profiles/": ok([makeProfile({ org_data: [makeOrg({ role })] })]),
    "GET /api/organization/usage/?org=7": ok(
      makeUsage({ limits_managed_by: "billing", administrator_email: null }),
    ),
    "GET /api/organizations/7/": ok({ id: 7, title: "Acme", plan: overview().plan }),
    "GET /api/tariffs/": ok([...TARIFFS, BUSINESS]),
    "GET /api/billing/?org=7": () => ok(overview()),
    "GET /api/month_price/2/?org=7&interval=month": ok(
      makeMonthPrice({
        plan: team,
        current_monthly: 29,
        new_monthly: 29,
        proration: 0,
        next_invoice_total: 29,
      }),
    ),
    "GET /api/month_price/3/?org=7&interval=month": ok(makeMonthPrice()),
    "GET /api/invoice-history-w-pdf/?org=7&page=1": page([makeInvoice()]),
    ...(replies as Record<string, ApiReply>),
  });
}

async function section(name: string) {
  return (await screen.findByRole("heading", { name, level: 2 })).closest("section") as HTMLElement;
}

describe("plan page with hosted billing", () => {
  useSignedInTestSession();

  it("shows the plan, its status, the next charge, the card and the invoices", async () => {
    serve(makeBilling());
    renderApp("/dashboard/organization/plan");
    const summary = await section("Subscription");
    expect(within(summary).getByText("Team")).toBeTruthy();
    expect(within(summary).getByText("Active")).toBeTruthy();
    expect(within(summary).getByText("$29.00 on April 1, 2026")).toBeTruthy();
    expect(within(summary).getByText("Visa ending in 4242, expires 12/2031")).toBeTruthy();
    expect(within(summary).getByRole("button", { name: "Change card" })).toBeTruthy();

    const invoices = await section("Invoices");
    const row = (await within(invoices).findByText("TARMAC-1")).closest("tr") as HTMLElement;
    expect(within(row).getByText("March 1, 2026")).toBeTruthy();
    expect(within(row).getByText("$29.00")).toBeTruthy();
    expect(within(row).getByText("Paid")).toBeTruthy();
    const pdf = within(row).getByRole("link", { name: "Invoice TARMAC-1 as PDF (opens in a new tab)" });
    expect(pdf.getAttribute("href")).toBe("https://invoice.stripe.test/in_1/pdf");
    expect(pdf.getAttribute("target")).toBe("_blank");
    expect(pdf.getAttribute("rel")).toContain("noopener");
    expect(within(invoices).getByText("1 invoice")).toBeTruthy();
  });

  it("says when a failed payment's grace period ends", async () => {
    serve(makeBilling({ status: "past_due", grace_ends_at: "2026-04-08T00:00:00Z" }));
    renderApp("/dashboard/organization/plan");
    const summary = await section("Subscription");
    expect(
      within(summary).getByText(
        "Payment past due: the plan stays until April 8, 2026 while the card is charged again.",
      ),
    ).toBeTruthy();
  });

  it("prices Business for this organization with the proration, and upgrades after asking", async () => {
    let billing = makeBilling();
    const calls = serve(() => billing, {
      "POST /api/billing/subscription/": () => {
        billing = makeBilling({ plan: business, subscribed_plan: business });
        return ok({ requires_action: false, billing });
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/plan");
    const plans = await section("Plans");
    const current = await within(plans).findByRole("article", { name: "Team" });
    expect(await within(current).findByText("Current plan")).toBeTruthy();
    expect(within(current).queryByRole("button")).toBeNull();
    const offer = within(plans).getByRole("article", { name: "Business" });
    expect(await within(offer).findByText("$99.00 / month")).toBeTruthy();
    expect(
      within(offer).getByText("Changing now adds $35.00 for the rest of this period (prorated)."),
    ).toBeTruthy();
    expect(within(offer).getByText("Next invoice: $134.00 on April 1, 2026")).toBeTruthy();

    await user.click(within(offer).getByRole("button", { name: "Upgrade to Business" }));
    const dialog = await screen.findByRole("dialog", { name: "Upgrade to Business" });
    expect(
      within(dialog).getByText(
        "The organization moves to the Business plan at $99.00 per month. The next invoice comes to $134.00, the change prorated.",
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Upgrade to Business" }));
    expect(await screen.findByText("The organization is now on the Business plan.")).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      org: 7,
      plan: 3,
      interval: "month",
    });
    const summary = await section("Subscription");
    await waitFor(() => expect(within(summary).getByText("Business")).toBeTruthy());
  });

  it("has Stripe.js confirm a payment the card's bank wants checked (3-D Secure)", async () => {
    installFakeStripeJs();
    const calls = serve(makeBilling(), {
      "POST /api/billing/subscription/": ok({ requires_action: true, client_secret: "pi_9_secret_x" }),
      "POST https://api.stripe.com/v1/payment_intents/pi_9/confirm": ok({ id: "pi_9", status: "succeeded" }),
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/plan");
    const offer = await within(await section("Plans")).findByRole("article", { name: "Business" });
    await user.click(await within(offer).findByRole("button", { name: "Upgrade to Business" }));
    const dialog = await screen.findByRole("dialog", { name: "Upgrade to Business" });
    await user.click(within(dialog).getByRole("button", { name: "Upgrade to Business" }));
    expect(
      await screen.findByText(
        "The payment is confirmed. The Business plan applies as soon as Stripe reports it.",
      ),
    ).toBeTruthy();
    expect(calls.find((call) => call.url.startsWith("https://api.stripe.com"))?.body).toEqual({
      client_secret: "pi_9_secret_x",
    });
    delete (window as unknown as { Stripe?: unknown }).Stripe;
  });

  it("shows the server's reason when it refuses a downgrade", async () => {
    const reason =
      "The organization holds more than the Team plan allows (projects: 30 used, 25 allowed). Remove what is over, then try again.";
    serve(makeBilling({ plan: business, subscribed_plan: business }), {
      "GET /api/month_price/2/?org=7&interval=month": ok(
        makeMonthPrice({ plan: team, current_monthly: 99, new_monthly: 29, proration: -35 }),
      ),
      "GET /api/month_price/3/?org=7&interval=month": ok(
        makeMonthPrice({ current_monthly: 99, new_monthly: 99, proration: 0 }),
      ),
      "POST /api/billing/subscription/": {
        status: 400,
        body: { error_code: "plan_limits_exceeded", detail: reason },
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/plan");
    const plans = await section("Plans");
    const offer = await within(plans).findByRole("article", { name: "Team" });
    expect(
      await within(offer).findByText("Changing now credits $35.00 for the rest of this period (prorated)."),
    ).toBeTruthy();
    await user.click(within(offer).getByRole("button", { name: "Downgrade to Team" }));
    const dialog = await screen.findByRole("dialog", { name: "Downgrade to Team" });
    await user.click(within(dialog).getByRole("button", { name: "Downgrade to Team" }));
    expect(await within(plans).findByText(reason)).toBeTruthy();
  });

  it("cancels at the period's end after asking, and resumes", async () => {
    let billing = makeBilling();
    const setCancel = (cancel: boolean) => () => {
      billing = makeBilling({
        cancel_at_period_end: cancel,
        next_charge: cancel ? null : billing.next_charge,
      });
      return ok(billing);
    };
    const calls = serve(() => billing, {
      "POST /api/billing/subscription/cancel/": setCancel(true),
      "POST /api/billing/subscription/resume/": setCancel(false),
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/plan");
    const summary = await section("Subscription");
    await user.click(within(summary).getByRole("button", { name: "Cancel subscription" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel the subscription?" });
    expect(
      within(dialog).getByText(
        "The Team plan stays until April 1, 2026. Then the organization moves to the Free plan; nothing is deleted.",
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    expect(await within(summary).findByText("Cancels on April 1, 2026")).toBeTruthy();
    expect(within(summary).getByText("No upcoming charge")).toBeTruthy();

    await user.click(within(summary).getByRole("button", { name: "Resume subscription" }));
    expect(await within(summary).findByText("Active")).toBeTruthy();
    expect(calls.filter((call) => call.method === "POST").map((call) => [call.url, call.body])).toEqual([
      ["/api/billing/subscription/cancel/", { org: 7 }],
      ["/api/billing/subscription/resume/", { org: 7 }],
    ]);
  });

  it("pages through the invoices from page 1", async () => {
    const numbered = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) =>
        makeInvoice({ id: `in_${from + index}`, number: `TARMAC-${from + index}` }),
      );
    const calls = serve(makeBilling(), {
      "GET /api/invoice-history-w-pdf/?org=7&page=1": page(numbered(1, 10), 12),
      "GET /api/invoice-history-w-pdf/?org=7&page=2": page(numbered(11, 12), 12),
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/plan");
    const invoices = await section("Invoices");
    expect(await within(invoices).findByText("TARMAC-10")).toBeTruthy();
    expect(within(invoices).getByText("12 invoices")).toBeTruthy();
    await user.click(within(invoices).getByRole("button", { name: "Next page" }));
    expect(await within(invoices).findByText("TARMAC-12")).toBeTruthy();
    expect(within(invoices).queryByText("TARMAC-10")).toBeNull();
    expect(
      calls.filter((call) => call.url.startsWith("/api/invoice-history")).map((call) => call.url),
    ).toEqual(["/api/invoice-history-w-pdf/?org=7&page=1", "/api/invoice-history-w-pdf/?org=7&page=2"]);
  });

  it("lets admins read prices and invoices but change nothing", async () => {
    serve(makeBilling(), {}, 2);
    renderApp("/dashboard/organization/plan");
    const plans = await section("Plans");
    const offer = await within(plans).findByRole("article", { name: "Business" });
    expect(await within(offer).findByText("$99.00 / month")).toBeTruthy();
    expect(within(offer).queryByRole("button")).toBeNull();
    const summary = await section("Subscription");
    expect(within(summary).queryByRole("button")).toBeNull();
  });
});
