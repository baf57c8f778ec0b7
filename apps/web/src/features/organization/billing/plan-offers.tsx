// The plans an organization can buy, monthly or yearly, each priced for this organization
// (`GET /api/month_price/{id}/`: per month, and what changing now adds to the next invoice).
import { Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Text } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type BillingInterval,
  billingKeys,
  changeSubscription,
  type EnabledBilling,
  fetchMonthPrice,
  type MonthPrice,
} from "../../../api/billing.ts";
import { ApiError } from "../../../api/client.ts";
import { fetchPlans, planKeys, type Tariff } from "../../../api/plans.ts";
import { Alert } from "../../../ui/alert.tsx";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { Section } from "../../../ui/page-frame.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";
import { PlanLimitsList } from "../../../ui/plan-limits-list.tsx";
import { useBillingFormats } from "./billing-format.ts";
import { loadStripeJs, StripeUnavailableError } from "./load-stripe.ts";
import { useRefreshBilling } from "./use-refresh-billing.ts";

interface PlanOffersProps {
  billing: EnabledBilling;
  orgId: number;
  canManage: boolean;
}

type Direction = "upgrade" | "downgrade" | "switch";

function directionOf(price: MonthPrice): Direction {
  if (price.new_monthly > price.current_monthly) return "upgrade";
  if (price.new_monthly < price.current_monthly) return "downgrade";
  return "switch";
}

export function PlanOffers({ billing, orgId, canManage }: PlanOffersProps) {
  const { t } = useTranslation();
  const [interval, setInterval] = useState<BillingInterval>(billing.interval ?? "month");
  const [refusal, setRefusal] = useState<string | null>(null);
  const plans = useQuery({ queryKey: planKeys.tariffs(), queryFn: fetchPlans });
  // Free and unlimited plans are not sold; only priced plans can be subscribed to.
  const sold = plans.data?.filter((plan) => plan.price > 0) ?? [];
  return (
    <Section title={t("plan.plans")}>
      <SegmentedControl
        aria-label={t("billing.interval.label")}
        value={interval}
        onChange={(value) => setInterval(value as BillingInterval)}
        data={[
          { value: "month", label: t("billing.interval.monthly") },
          { value: "year", label: t("billing.interval.yearly") },
        ]}
        w="fit-content"
      />
      {refusal ? <Alert type="error" message={refusal} timeout={0} onClose={() => setRefusal(null)} /> : null}
      {plans.isPending ? <PageLoader /> : null}
      {plans.isError ? <LoadError onRetry={() => void plans.refetch()} /> : null}
      {plans.data && sold.length === 0 ? <Text c="dimmed">{t("pricing.empty")}</Text> : null}
      {sold.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {sold.map((plan) => (
            <PlanOffer
              key={plan.id}
              plan={plan}
              interval={interval}
              billing={billing}
              orgId={orgId}
              canManage={canManage}
              onRefused={setRefusal}
            />
          ))}
        </SimpleGrid>
      ) : null}
    </Section>
  );
}

interface PlanOfferProps extends PlanOffersProps {
  plan: Tariff;
  interval: BillingInterval;
  onRefused: (reason: string | null) => void;
}

function PlanOffer({ plan, interval, billing, orgId, canManage, onRefused }: PlanOfferProps) {
  const { t } = useTranslation();
  const { money, date } = useBillingFormats();
  const price = useQuery({
    queryKey: billingKeys.monthPrice(orgId, plan.id, interval),
    queryFn: () => fetchMonthPrice(orgId, plan.id, interval),
  });
  const current = billing.subscribed_plan?.id === plan.id && billing.interval === interval;
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={plan.title}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={700}>{plan.title}</Text>
          {current ? <Badge>{t("plan.current")}</Badge> : null}
        </Group>
        <PlanLimitsList plan={plan} spacing={2} />
        {price.isPending ? <Text c="dimmed">{t("common.loading")}</Text> : null}
        {price.isError ? <Text c="dimmed">{describeError(price.error, t)}</Text> : null}
        {price.data ? (
          <>
            <Text fz="xl" fw={700}>
              {t("pricing.per_month", { price: money(price.data.new_monthly, price.data.currency) })}
            </Text>
            {interval === "year" ? <Text fz="sm">{t("billing.billed_yearly")}</Text> : null}
            {current ? null : <PriceChange price={price.data} money={money} date={date} />}
            {canManage && !current ? (
              <ChangePlanButton
                price={price.data}
                orgId={orgId}
                publishableKey={billing.publishable_key}
                onRefused={onRefused}
              />
            ) : null}
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

/** What changing now costs: the proration and the next invoice. */
function PriceChange({
  price,
  money,
  date,
}: {
  price: MonthPrice;
  money: (amount: number, currency: string) => string;
  date: (iso: string) => string;
}) {
  const { t } = useTranslation();
  const total = money(price.next_invoice_total, price.currency);
  return (
    <Stack gap={2}>
      {price.current_monthly > 0 ? (
        <Text fz="sm">
          {t(price.proration < 0 ? "billing.proration_credit" : "billing.proration", {
            amount: money(Math.abs(price.proration), price.currency),
          })}
        </Text>
      ) : null}
      <Text fz="sm" c="dimmed">
        {price.next_invoice_date
          ? t("billing.next_invoice_on", { amount: total, date: date(price.next_invoice_date) })
          : t("billing.first_invoice", { amount: total })}
      </Text>
    </Stack>
  );
}

/** The server's reason, Stripe.js's (a declined 3-D Secure check), or that Stripe.js did not load. */
function reasonOf(error: unknown, t: TFunction): string {
  if (error instanceof StripeUnavailableError) return t("billing.card.unavailable");
  if (error instanceof ApiError || !(error instanceof Error)) return describeError(error, t);
  return error.message;
}

function ChangePlanButton({
  price,
  orgId,
  publishableKey,
  onRefused,
}: {
  price: MonthPrice;
  orgId: number;
  publishableKey: string;
  onRefused: (reason: string | null) => void;
}) {
  const { t } = useTranslation();
  const { money } = useBillingFormats();
  const alerts = useAlerts();
  const refresh = useRefreshBilling(orgId);
  const [confirming, setConfirming] = useState(false);
  const direction = directionOf(price);
  const label = t(`billing.${direction}`, { plan: price.plan.title });
  const change = useMutation({
    mutationFn: async () => {
      const result = await changeSubscription(orgId, price.plan.id, price.interval);
      if (!result.requires_action) return "changed" as const;
      // The card's bank wants 3-D Secure for the payment; the plan follows once Stripe reports it.
      const stripe = await loadStripeJs(publishableKey);
      const confirmed = await stripe.confirmCardPayment(result.client_secret);
      if (confirmed.error) throw new Error(confirmed.error.message ?? t("billing.card.failed"));
      return "confirming" as const;
    },
    onMutate: () => onRefused(null),
    onSuccess: (outcome) => {
      setConfirming(false);
      refresh();
      const message =
        outcome === "changed"
          ? t("billing.changed", { plan: price.plan.title })
          : t("billing.payment_confirming", { plan: price.plan.title });
      alerts.show({ type: "success", message });
    },
    onError: (error) => {
      setConfirming(false);
      onRefused(reasonOf(error, t));
    },
  });
  return (
    <>
      <Button variant={direction === "upgrade" ? "filled" : "light"} onClick={() => setConfirming(true)}>
        {label}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={label}
        message={t("billing.change_message", {
          plan: price.plan.title,
          price: money(price.new_monthly, price.currency),
          total: money(price.next_invoice_total, price.currency),
        })}
        confirmLabel={label}
        danger={false}
        busy={change.isPending}
        onConfirm={() => change.mutate()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
