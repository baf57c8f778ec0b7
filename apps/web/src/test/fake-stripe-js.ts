// A stand-in for Stripe.js, for jsdom and for the browser tests (which serve this function's
// source as the script from js.stripe.com). It keeps to the part of Stripe.js's surface the card
// form uses: elements().create("card") with mount/on/off, confirmCardSetup and
// confirmCardPayment. The card field is one plain input. Confirmations are POSTed as JSON to
// https://api.stripe.com/v1/{setup_intents|payment_intents}/{id}/confirm, where the test answers
// for Stripe: with the intent, or with {error: {message}}.
//
// The function must stay self-contained (no imports, no outside names): the browser tests turn
// it into a script with Function.prototype.toString.
export function installFakeStripeJs(): void {
  type Listener = (event: unknown) => void;
  const luhn = (digits: string) => {
    let sum = 0;
    for (let index = 0; index < digits.length; index += 1) {
      let digit = Number(digits[digits.length - 1 - index]);
      if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    return sum % 10 === 0;
  };
  const createCard = () => {
    const listeners = new Map<string, Set<Listener>>();
    const input = document.createElement("input");
    input.setAttribute("aria-label", "Card number");
    input.setAttribute("inputmode", "numeric");
    input.setAttribute("autocomplete", "cc-number");
    const emit = (name: string, event: unknown) => {
      for (const listener of listeners.get(name) ?? []) listener(event);
    };
    input.addEventListener("input", () => {
      const digits = input.value.replace(/\D/g, "");
      const invalid = digits.length >= 16 && !luhn(digits);
      emit("change", {
        elementType: "card",
        empty: digits.length === 0,
        complete: digits.length >= 16 && !invalid,
        brand: digits.startsWith("4") ? "visa" : "unknown",
        error: invalid
          ? { type: "validation_error", code: "invalid_number", message: "Your card number is invalid." }
          : undefined,
      });
    });
    const element = {
      number: () => input.value.replace(/\D/g, ""),
      mount: (target: string | HTMLElement) => {
        const node = typeof target === "string" ? document.querySelector(target) : target;
        node?.appendChild(input);
        setTimeout(() => emit("ready", { elementType: "card" }), 0);
      },
      on: (name: string, listener: Listener) => {
        listeners.set(name, (listeners.get(name) ?? new Set()).add(listener));
        return element;
      },
      off: (name: string, listener: Listener) => {
        listeners.get(name)?.delete(listener);
        return element;
      },
      update: () => undefined,
      focus: () => input.focus(),
      blur: () => input.blur(),
      clear: () => {
        input.value = "";
      },
      unmount: () => input.remove(),
      destroy: () => input.remove(),
    };
    return element;
  };
  const confirm = async (kind: string, clientSecret: string, body: Record<string, unknown>) => {
    const id = clientSecret.split("_secret_")[0];
    const response = await fetch(`https://api.stripe.com/v1/${kind}/${id}/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_secret: clientSecret, ...body }),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const createStripe = () => {
    let card: ReturnType<typeof createCard> | null = null;
    const elements = {
      create: (type: string) => {
        if (type !== "card") throw new Error(`This stand-in draws only the card element, not ${type}.`);
        card = createCard();
        return card;
      },
      getElement: () => card,
      update: () => undefined,
    };
    return {
      elements: () => elements,
      createToken: async () => ({ error: { message: "Tokens are not used." } }),
      createPaymentMethod: async () => ({ error: { message: "Payment methods come from a SetupIntent." } }),
      confirmCardSetup: async (
        clientSecret: string,
        data: { payment_method: { card: ReturnType<typeof createCard> } },
      ) => {
        const answer = await confirm("setup_intents", clientSecret, {
          number: data.payment_method.card.number(),
        });
        return answer.error ? { error: answer.error } : { setupIntent: answer };
      },
      confirmCardPayment: async (clientSecret: string) => {
        const answer = await confirm("payment_intents", clientSecret, {});
        return answer.error ? { error: answer.error } : { paymentIntent: answer };
      },
      _registerWrapper: () => undefined,
      registerAppInfo: () => undefined,
    };
  };
  // The release train @stripe/stripe-js expects, so it loads this without a version warning.
  (window as unknown as { Stripe: unknown }).Stripe = Object.assign(createStripe, { version: "endive" });
}
