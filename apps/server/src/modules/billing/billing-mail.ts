import type { MailContent } from "../../platform/mail/mail-content.ts";

/** The mails of a failed payment, to the organization's owner. */
export interface GraceMailFacts {
  organization: { id: number; name: string };
  plan: string;
  graceEndsAt: Date;
  billingUrl: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

export function paymentFailedMail(facts: GraceMailFacts): MailContent {
  const { name } = facts.organization;
  return {
    subject: `Tarmac: the payment for ${name} failed`,
    organization: facts.organization,
    title: "The payment failed",
    blocks: [
      `We could not charge the card on file for the ${facts.plan} plan of ${name}.`,
      `Please update the card before ${day(facts.graceEndsAt)}.`,
      { button: "Update the card", url: facts.billingUrl },
      "Until then nothing changes. After that date the organization keeps everything it holds, but it falls back to the free plan's limits until a payment goes through.",
    ],
  };
}

export function graceEndingMail(facts: GraceMailFacts): MailContent {
  const { name } = facts.organization;
  return {
    subject: `Tarmac: ${name} moves to the free plan's limits in two days`,
    organization: facts.organization,
    title: "The payment is still outstanding",
    blocks: [
      `The payment for the ${facts.plan} plan of ${name} is still outstanding.`,
      `On ${day(facts.graceEndsAt)} the organization falls back to the free plan's limits (nothing is deleted). Update the card to keep the plan.`,
      { button: "Update the card", url: facts.billingUrl },
    ],
  };
}

export function lapsedMail(facts: GraceMailFacts): MailContent {
  const { name } = facts.organization;
  return {
    subject: `Tarmac: ${name} is on the free plan's limits`,
    organization: facts.organization,
    title: "Now on the free plan's limits",
    blocks: [
      `The payment for the ${facts.plan} plan of ${name} did not go through, so the organization now has the free plan's limits. Nothing was deleted.`,
      `Once a payment succeeds, the ${facts.plan} plan's limits return.`,
      { button: "Open billing", url: facts.billingUrl },
    ],
  };
}
