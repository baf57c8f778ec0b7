import type { Database } from "../../platform/db/client.ts";
import type { MailContent } from "../../platform/mail/mail-content.ts";
import type { Mail } from "../../platform/mail/mail-queue.ts";
import type { TokenService } from "../users/token.service.ts";
import type { UserService } from "../users/user.service.ts";
import type { AccountHooks } from "./account-hooks.ts";

/** What the account services share: the database, people and their tokens, and mail. */
export interface AccountDeps {
  db: Database;
  users: UserService;
  tokens: TokenService;
  mail: Mail;
  publicUrl: string;
  hooks: AccountHooks;
}

/**
 * Queues an account e-mail in the caller's transaction, so it goes out exactly when the change
 * commits, ahead of other mail: people wait on these to sign in.
 */
export async function queueMail(deps: AccountDeps, tx: Database, to: string, mail: MailContent) {
  await deps.mail.queue({ to, ...mail }, { tx, urgent: true });
}

export const dayMs = 24 * 3600 * 1000;
const hourMs = 3600 * 1000;

/**
 * How much account mail one person may receive and one requester may cause: enough for real
 * use, far from a mailbox flood. Both hold across processes (the throttle table).
 */
export const accountMailLimits = {
  perRecipientPerHour: 3,
  resetsPerAddressPerHour: 10,
  resendsPerRequesterPerHour: 30,
  windowMs: hourMs,
  /** Invitations to organizations: any number of organizations together, per address. */
  invitationsPerRecipientPerDay: 10,
  /** One inviter may invite (or re-invite) one address this often. */
  invitationsPerSenderPerHour: 3,
} as const;
export const codeLifetimeMs = {
  activation: 7 * dayMs,
  invitation: 14 * dayMs,
  password_reset: 3600 * 1000,
} as const;
