/** An amount in the currency's major units (29.5 = $29.50), in the reader's language. */
export function formatMoney(amount: number, currency: string, language: string): string {
  if (!currency) return new Intl.NumberFormat(language).format(amount);
  return new Intl.NumberFormat(language, { style: "currency", currency: currency.toUpperCase() }).format(
    amount,
  );
}
