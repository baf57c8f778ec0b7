// An instance with Stripe, against a loopback Stripe peer: the owner saves a card through
// Stripe.js (a stand-in served as js.stripe.com, confirming SetupIntents at the peer), subscribes,
// upgrades with the proration shown, finds the invoice Stripe's webhook reported, cancels at the
// period's end and resumes.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { stripeEventPayload, stripeSignature } from "../../apps/server/test/helpers/stripe-events.ts";
import { StripePeer } from "../../apps/server/test/helpers/stripe-peer.ts";
import { installFakeStripeJs } from "../../apps/web/src/test/fake-stripe-js.ts";
import { apiClient } from "../helpers/api-client.ts";
import { seriousAccessibilityProblems } from "../helpers/axe.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fill } from "../helpers/shared-files.ts";

const OWNER = "olive.owner@billing.test";
const SECRET_KEY = "sk_test_tarmace2e";
const WEBHOOK_SECRET = "whsec_tarmace2e";

let harness: Harness;
let peer: StripePeer;
let dataDir: string;
let ownerToken: string;
let organizationId: number;

const owner = apiClient(
  () => harness.baseUrl,
  () => ownerToken,
);

/** Serves the Stripe.js stand-in as js.stripe.com, and answers its confirmations as Stripe would. */
async function stubStripeJs(page: Page) {
  await page.route("https://js.stripe.com/**", (route) =>
    route.fulfill({ contentType: "application/javascript", body: `(${installFakeStripeJs.toString()})();` }),
  );
  await page.route("https://api.stripe.com/v1/setup_intents/*/confirm", async (route) => {
    const { client_secret: secret, number } = route.request().postDataJSON() as {
      client_secret: string;
      number: string;
    };
    const paymentMethod = peer.confirmSetupIntent(secret, {
      brand: "visa",
      last4: number.slice(-4),
      funding: "credit",
    });
    await route.fulfill({
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*" },
      body: JSON.stringify({
        id: secret.split("_secret_")[0],
        status: "succeeded",
        payment_method: paymentMethod,
      }),
    });
  });
}

/** Stripe reports the subscription's invoice paid, as its webhook does. */
async function deliverPaidInvoice() {
  const subscription = [...peer.subscriptions.values()].find(
    (entry) => (entry.metadata as Record<string, string>).organization_id === String(organizationId),
  );
  const invoice = peer.invoice(String(subscription?.id), { status: "paid" });
  const payload = stripeEventPayload("invoice.paid", invoice, Math.floor(Date.now() / 1000) + 5);
  const response = await fetch(`${harness.baseUrl}/api/billing/stripe-webhook/`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": stripeSignature(payload, WEBHOOK_SECRET),
    },
    body: payload,
  });
  expect(response.status).toBe(200);
  return invoice as { number: string; invoice_pdf: string };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-billing-"));
  peer = new StripePeer(SECRET_KEY);
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: "pk_test_tarmace2e",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: await peer.start(),
  };
  ownerToken = issueAdminToken(env, OWNER);
  harness = await startHarness(env);
  const created = await owner.postJson("/api/organizations/", {
    title: "Olive Labs",
    subdomain: "olive-labs",
  });
  expect(created.status).toBe(201);
  organizationId = created.body.id;
});

afterAll(async () => {
  await harness?.close();
  await peer?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("hosted billing on the plan page", () => {
  it("the owner saves a card, subscribes, upgrades with proration, sees the invoice, cancels and resumes", async () => {
    const context = await harness.signedInContext(ownerToken);
    const page = await context.newPage();
    await stubStripeJs(page);
    await page.goto("/dashboard/organization/plan");
    const summary = page
      .locator("section")
      .filter({ has: page.getByRole("heading", { name: en.billing.subscription }) });
    await summary.getByText(en.billing.status.none).waitFor();
    await summary.getByText(en.billing.card.none).waitFor();

    // The card, through Stripe.js and the SetupIntent the server started.
    await summary.getByRole("button", { name: en.billing.card.add }).click();
    const cardDialog = page.getByRole("dialog", { name: en.billing.card.title });
    await cardDialog.getByLabel("Card number").fill("4242424242424242");
    await cardDialog.getByRole("button", { name: en.billing.card.submit }).click();
    await page.getByText(en.billing.card.saved).waitFor();
    const visa = fill(en.billing.card.summary, { brand: "Visa", last4: "4242", expiry: "12/2031" });
    await summary.getByText(visa).waitFor();

    // Team first: its first invoice is the monthly price.
    const plans = page.locator("section").filter({ has: page.getByRole("heading", { name: en.plan.plans }) });
    const teamOffer = plans.getByRole("article", { name: "Team" });
    await teamOffer.getByText(fill(en.billing.first_invoice, { amount: "$29.00" })).waitFor();
    const toTeam = fill(en.billing.upgrade, { plan: "Team" });
    await teamOffer.getByRole("button", { name: toTeam }).click();
    await page.getByRole("dialog", { name: toTeam }).getByRole("button", { name: toTeam }).click();
    await page.getByText(fill(en.billing.changed, { plan: "Team" })).waitFor();
    await summary.getByText(en.billing.status.active).waitFor();
    await teamOffer.getByText(en.plan.current).waitFor();

    // Then Business: half a period of each price prorated, $99.00 - $29.00 halved.
    const businessOffer = plans.getByRole("article", { name: "Business" });
    await businessOffer.getByText(fill(en.billing.proration, { amount: "$35.00" })).waitFor();
    const toBusiness = fill(en.billing.upgrade, { plan: "Business" });
    await businessOffer.getByRole("button", { name: toBusiness }).click();
    await page.getByRole("dialog", { name: toBusiness }).getByRole("button", { name: toBusiness }).click();
    await page.getByText(fill(en.billing.changed, { plan: "Business" })).waitFor();
    await summary.getByText("Business", { exact: true }).waitFor();

    // The invoice Stripe's webhook reported, with its PDF opening in a new tab.
    const invoice = await deliverPaidInvoice();
    await page.reload();
    const invoices = page
      .locator("section")
      .filter({ has: page.getByRole("heading", { name: en.billing.invoices.title }) });
    const row = invoices.getByRole("row").filter({ hasText: invoice.number });
    await row.getByText("$99.00").waitFor();
    await row.getByText(en.billing.invoices.statuses.paid).waitFor();
    const pdf = row.getByRole("link", {
      name: fill(en.billing.invoices.pdf_link, { number: invoice.number }),
    });
    expect(await pdf.getAttribute("href")).toBe(invoice.invoice_pdf);
    expect(await pdf.getAttribute("target")).toBe("_blank");
    await page.mouse.move(5, 5);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Cancel at the period's end, asked first, then take it back.
    await summary.getByRole("button", { name: en.billing.cancel }).click();
    const confirm = page.getByRole("dialog", { name: en.billing.cancel_title });
    await confirm.getByRole("button", { name: en.billing.cancel }).click();
    await summary.getByText(/^Cancels on /).waitFor();
    await summary.getByRole("button", { name: en.billing.resume }).click();
    await summary.getByText(en.billing.status.active).waitFor();
    await context.close();

    const overview = await owner.api(`/api/billing/?org=${organizationId}`);
    expect(overview.body).toMatchObject({
      plan: { code: "business" },
      cancel_at_period_end: false,
      card: { last4: "4242" },
    });
  });
});
