import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { CardSummary, EnabledBilling } from "../../../api/billing.ts";
import { formatDate } from "../../../ui/format/date.ts";
import { formatMoney } from "../../../ui/format/money.ts";

/** Money and days in the reader's language. */
export function useBillingFormats() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return {
    money: (amount: number, currency: string) => formatMoney(amount, currency, language),
    date: (iso: string) => formatDate(iso, language),
  };
}

/** Where the subscription stands, in one sentence. */
export function describeStatus(billing: EnabledBilling, t: TFunction, date: (iso: string) => string): string {
  const { status } = billing;
  if (!status) return t("billing.status.none");
  if (billing.grace_ends_at) return t("billing.status.past_due", { date: date(billing.grace_ends_at) });
  if (status === "past_due" || status === "unpaid") return t("billing.status.past_due_retrying");
  if (billing.cancel_at_period_end && billing.current_period_end) {
    return t("billing.status.cancels", { date: date(billing.current_period_end) });
  }
  if (status === "active" || status === "trialing") return t("billing.status.active");
  if (status === "incomplete") return t("billing.status.incomplete");
  return status;
}

const brandNames: Record<string, string> = {
  amex: "American Express",
  diners: "Diners Club",
  discover: "Discover",
  jcb: "JCB",
  mastercard: "Mastercard",
  unionpay: "UnionPay",
  visa: "Visa",
};

export function describeCard(card: CardSummary, t: TFunction): string {
  return t("billing.card.summary", {
    brand: brandNames[card.brand] ?? card.brand,
    last4: card.last4,
    expiry: `${String(card.exp_month).padStart(2, "0")}/${card.exp_year}`,
  });
}
