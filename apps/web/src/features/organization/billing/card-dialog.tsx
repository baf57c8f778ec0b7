// The card form (spec §2 card entry): Stripe's card field, confirmed against a SetupIntent.
import { Button, Group, Input, Loader, Modal, Stack, Text } from "@mantine/core";
import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { StripeCardElementChangeEvent, StripeCardElementOptions } from "@stripe/stripe-js";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { saveCard, startCardSetup } from "../../../api/billing.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { useRefreshBilling } from "./use-refresh-billing.ts";
import { useStripeJs } from "./use-stripe-js.ts";

/** Number, expiry and CVC only (spec §2); the focus class draws the visible focus ring. */
const cardOptions: StripeCardElementOptions = {
  hidePostalCode: true,
  classes: { base: "card-field", focus: "card-field--focus", invalid: "card-field--invalid" },
  style: { base: { fontSize: "16px" } },
};

interface CardDialogProps {
  opened: boolean;
  onClose: () => void;
  orgId: number;
  subdomain: string;
  publishableKey: string;
}

export function CardDialog({ opened, onClose, ...form }: CardDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t("billing.card.title")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      {opened ? <CardFormLoader {...form} onDone={onClose} /> : null}
    </Modal>
  );
}

type FormProps = Omit<CardDialogProps, "opened" | "onClose"> & { onDone: () => void };

/** Waits for Stripe.js, and says so plainly when it cannot load (blocked, offline, timed out). */
function CardFormLoader({ publishableKey, ...form }: FormProps) {
  const { t } = useTranslation();
  const stripe = useStripeJs(publishableKey);
  if (stripe.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text>{t("billing.card.loading")}</Text>
      </Group>
    );
  }
  if (stripe.isError) {
    return (
      <Stack gap="sm" role="alert">
        <Text>{t("billing.card.unavailable")}</Text>
        <Group>
          <Button variant="light" onClick={() => void stripe.refetch()}>
            {t("common.retry")}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    // Card fields speak English whatever the page's language (spec §9).
    <Elements stripe={stripe.data} options={{ locale: "en" }}>
      <CardForm {...form} />
    </Elements>
  );
}

function CardForm({ orgId, subdomain, onDone }: Omit<FormProps, "publishableKey">) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const alerts = useAlerts();
  const refresh = useRefreshBilling(orgId);
  const [complete, setComplete] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onChange = (event: StripeCardElementChangeEvent) => {
    setComplete(event.complete);
    setFieldError(event.error?.message ?? null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || !complete) return;
    setBusy(true);
    setError(null);
    try {
      const setup = await startCardSetup(subdomain);
      // Stripe.js asks the card's bank for 3-D Secure here when it wants it.
      const result = await stripe.confirmCardSetup(setup.client_secret, { payment_method: { card } });
      if (result.error) {
        setError(result.error.message ?? t("billing.card.failed"));
        return;
      }
      const method = result.setupIntent.payment_method;
      const token = typeof method === "string" ? method : (method?.id ?? "");
      await saveCard({ token, subdomain, pi_id: result.setupIntent.id });
      refresh();
      alerts.show({ type: "success", message: t("billing.card.saved") });
      onDone();
    } catch (failure) {
      // The server's reason (a prepaid card, Stripe's refusal) as it gave it.
      setError(describeError(failure, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Input.Wrapper
          label={t("billing.card.field")}
          description={t("billing.card.field_hint")}
          error={fieldError}
        >
          <CardElement options={cardOptions} onChange={onChange} />
        </Input.Wrapper>
        {error ? (
          <Text c="red" role="alert">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={busy} disabled={!stripe || !complete}>
            {t("billing.card.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
