// The organization's subscription at a glance: plan, status, next charge and card, with the
// owner's actions on them (change card, cancel at the period's end, resume).
import { Badge, Button, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { cancelSubscription, type EnabledBilling, resumeSubscription } from "../../../api/billing.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { Section } from "../../../ui/page-frame.tsx";
import { describeCard, describeStatus, useBillingFormats } from "./billing-format.ts";
import { CardDialog } from "./card-dialog.tsx";
import { useRefreshBilling } from "./use-refresh-billing.ts";

interface SubscriptionSummaryProps {
  billing: EnabledBilling;
  orgId: number;
  subdomain: string;
  /** Owners change billing; admins only read it. */
  canManage: boolean;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

export function SubscriptionSummary({ billing, orgId, subdomain, canManage }: SubscriptionSummaryProps) {
  const { t } = useTranslation();
  const { money, date } = useBillingFormats();
  const [cardOpen, setCardOpen] = useState(false);
  const pastDue = Boolean(billing.grace_ends_at) || billing.status === "past_due";
  return (
    <Section title={t("billing.subscription")}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Fact label={t("plan.current")}>
          <Group gap="xs">
            <Text fw={700}>{billing.plan.title}</Text>
            {billing.interval ? (
              <Badge variant="light">{t(`billing.interval.${billing.interval}`)}</Badge>
            ) : null}
          </Group>
        </Fact>
        <Fact label={t("billing.status.label")}>
          <Text c={pastDue ? "red.8" : undefined} fw={pastDue ? 600 : undefined}>
            {describeStatus(billing, t, date)}
          </Text>
        </Fact>
        <Fact label={t("billing.next_charge")}>
          <Text>
            {billing.next_charge
              ? t("billing.next_charge_on", {
                  amount: money(billing.next_charge.amount, billing.next_charge.currency),
                  date: date(billing.next_charge.date),
                })
              : t("billing.no_next_charge")}
          </Text>
        </Fact>
        <Fact label={t("billing.card.label")}>
          <Group gap="sm">
            <Text>{billing.card ? describeCard(billing.card, t) : t("billing.card.none")}</Text>
            {canManage ? (
              <Button size="xs" variant="light" onClick={() => setCardOpen(true)}>
                {billing.card ? t("billing.card.change") : t("billing.card.add")}
              </Button>
            ) : null}
          </Group>
        </Fact>
      </SimpleGrid>
      {canManage && billing.status && billing.status !== "incomplete" ? (
        <PeriodEndActions billing={billing} orgId={orgId} />
      ) : null}
      <CardDialog
        opened={cardOpen}
        onClose={() => setCardOpen(false)}
        orgId={orgId}
        subdomain={subdomain}
        publishableKey={billing.publishable_key}
      />
    </Section>
  );
}

/** Cancel at the end of the period paid for (asked first), or take that back. */
function PeriodEndActions({ billing, orgId }: { billing: EnabledBilling; orgId: number }) {
  const { t } = useTranslation();
  const { date } = useBillingFormats();
  const alerts = useAlerts();
  const refresh = useRefreshBilling(orgId);
  const [confirming, setConfirming] = useState(false);
  const change = useMutation({
    mutationFn: (cancel: boolean) => (cancel ? cancelSubscription(orgId) : resumeSubscription(orgId)),
    onSuccess: (_billing, cancel) => {
      setConfirming(false);
      refresh();
      alerts.show({ type: "success", message: t(cancel ? "billing.cancelled" : "billing.resumed") });
    },
    onError: (error) => {
      setConfirming(false);
      alerts.show({ type: "error", message: describeError(error, t), timeout: 0 });
    },
  });
  const periodEnd = billing.current_period_end ? date(billing.current_period_end) : "";
  if (billing.cancel_at_period_end) {
    return (
      <Group>
        <Button onClick={() => change.mutate(false)} loading={change.isPending}>
          {t("billing.resume")}
        </Button>
      </Group>
    );
  }
  return (
    <Group>
      <Button variant="default" color="red" onClick={() => setConfirming(true)}>
        {t("billing.cancel")}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={t("billing.cancel_title")}
        message={t("billing.cancel_message", { plan: billing.plan.title, date: periodEnd })}
        confirmLabel={t("billing.cancel")}
        cancelLabel={t("billing.keep")}
        busy={change.isPending}
        onConfirm={() => change.mutate(true)}
        onClose={() => setConfirming(false)}
      />
    </Group>
  );
}
