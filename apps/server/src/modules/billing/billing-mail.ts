/** The mails of a failed payment, to the organization's owner. */
export interface GraceMailFacts {
  organization: string;
  plan: string;
  graceEndsAt: Date;
  billingUrl: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

export function paymentFailedMail(facts: GraceMailFacts) {
  return {
    subject: `Tarmac: the payment for ${facts.organization} failed`,
    text: [
      `We could not charge the card on file for the ${facts.plan} plan of ${facts.organization}.`,
      `Please update the card before ${day(facts.graceEndsAt)}: ${facts.billingUrl}`,
      "Until then nothing changes. After that date the organization keeps everything it holds, but it falls back to the free plan's limits until a payment goes through.",
    ].join("\n\n"),
  };
}

export function graceEndingMail(facts: GraceMailFacts) {
  return {
    subject: `Tarmac: ${facts.organization} moves to the free plan's limits in two days`,
    text: [
      `The payment for the ${facts.plan} plan of ${facts.organization} is still outstanding.`,
      `On ${day(facts.graceEndsAt)} the organization falls back to the free plan's limits (nothing is deleted). Update the card to keep the plan: ${facts.billingUrl}`,
    ].join("\n\n"),
  };
}

export function lapsedMail(facts: GraceMailFacts) {
  return {
    subject: `Tarmac: ${facts.organization} is on the free plan's limits`,
    text: [
      `The payment for the ${facts.plan} plan of ${facts.organization} did not go through, so the organization now has the free plan's limits. Nothing was deleted.`,
      `Once a payment succeeds, the ${facts.plan} plan's limits return: ${facts.billingUrl}`,
    ].join("\n\n"),
  };
}
