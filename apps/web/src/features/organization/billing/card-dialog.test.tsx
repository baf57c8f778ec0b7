import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { installFakeStripeJs } from "../../../test/fake-stripe-js.ts";
import {
  type ApiReply,
  renderWithProviders,
  stubApi,
  useSignedInTestSession,
} from "../../../test/render.tsx";
import { CardDialog } from "./card-dialog.tsx";

const SETUP = "GET /api/stripe-customer/?subdomain=acme";
const CONFIRM = "POST https://api.stripe.com/v1/setup_intents/seti_1/confirm";
const SAVE = "POST /api/stripe-customer/";
const card = { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2031, funding: "credit" };

function serve(replies: Record<string, ApiReply> = {}) {
  return stubApi({
    [SETUP]: { status: 200, body: { client_secret: "seti_1_secret_abc", publishable_key: "pk_test_tarmac" } },
    [CONFIRM]: { status: 200, body: { id: "seti_1", status: "succeeded", payment_method: "pm_1" } },
    [SAVE]: { status: 200, body: { card } },
    ...replies,
  });
}

function openDialog() {
  const onClose = vi.fn();
  renderWithProviders(
    <CardDialog opened onClose={onClose} orgId={7} subdomain="acme" publishableKey="pk_test_tarmac" />,
  );
  return onClose;
}

/** Fails the Stripe.js script the loader injected, as a blocked or unreachable script would. */
async function failStripeScript(previous?: Element) {
  const script = await waitFor(() => {
    const found = document.querySelector('script[src^="https://js.stripe.com/"]');
    if (!found || found === previous) throw new Error("no new Stripe.js script yet");
    return found;
  });
  script.dispatchEvent(new Event("error"));
  return script;
}

describe("card form", () => {
  useSignedInTestSession();
  afterEach(() => {
    delete (window as unknown as { Stripe?: unknown }).Stripe;
  });

  // First in this file: once Stripe.js has loaded, the loader keeps it for the page's life.
  it("says so when Stripe.js cannot load, instead of waiting for ever", async () => {
    serve();
    openDialog();
    expect(await screen.findByText("Loading the card form…")).toBeTruthy();
    // The loader tries the script twice before giving up.
    await failStripeScript(await failStripeScript());
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The card form could not load.");
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Save card" })).toBeNull();
  });

  it("confirms the card with Stripe.js and saves the payment method with its SetupIntent", async () => {
    installFakeStripeJs();
    const calls = serve();
    const user = userEvent.setup();
    const onClose = openDialog();
    const save = await screen.findByRole("button", { name: "Save card" });
    expect(save.hasAttribute("disabled")).toBe(true);
    await user.type(screen.getByLabelText("Card number"), "4242424242424242");
    await waitFor(() => expect(save.hasAttribute("disabled")).toBe(false));
    await user.click(save);
    expect(await screen.findByText("The card is saved.")).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([SETUP, CONFIRM, SAVE]);
    expect(calls[2]?.body).toEqual({ token: "pm_1", subdomain: "acme", pi_id: "seti_1" });
  });

  it("shows the card field's own error and keeps the form closed to a bad number", async () => {
    installFakeStripeJs();
    serve();
    const user = userEvent.setup();
    openDialog();
    const save = await screen.findByRole("button", { name: "Save card" });
    await user.type(screen.getByLabelText("Card number"), "4242424242424241");
    expect(await screen.findByText("Your card number is invalid.")).toBeTruthy();
    expect(save.hasAttribute("disabled")).toBe(true);
  });

  it("shows Stripe's message when the card is declined, and saves nothing", async () => {
    installFakeStripeJs();
    const calls = serve({
      [CONFIRM]: { status: 402, body: { error: { type: "card_error", message: "Your card was declined." } } },
    });
    const user = userEvent.setup();
    const onClose = openDialog();
    await user.type(await screen.findByLabelText("Card number"), "4000000000000002");
    await user.click(screen.getByRole("button", { name: "Save card" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Your card was declined.");
    expect(calls.some((call) => call.method === "POST" && call.url === "/api/stripe-customer/")).toBe(false);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of a prepaid card", async () => {
    installFakeStripeJs();
    const refusal = "Prepaid cards are not accepted. Please use a credit or debit card.";
    serve({ [SAVE]: { status: 400, body: { detail: refusal } } });
    const user = userEvent.setup();
    openDialog();
    await user.type(await screen.findByLabelText("Card number"), "4000056655665556");
    await user.click(screen.getByRole("button", { name: "Save card" }));
    expect((await screen.findByRole("alert")).textContent).toBe(refusal);
  });
});
