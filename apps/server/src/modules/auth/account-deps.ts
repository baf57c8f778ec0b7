import type { Database } from "../../platform/db/client.ts";
import type { Mail } from "../../platform/mail/mail-queue.ts";
import type { TokenService } from "../users/token.service.ts";
import type { UserService } from "../users/user.service.ts";
import type { MailContent } from "./account-mail.ts";

/** What the account services share: the database, people and their tokens, and mail. */
export interface AccountDeps {
  db: Database;
  users: UserService;
  tokens: TokenService;
  mail: Mail;
  publicUrl: string;
}

/** Queues an e-mail in the caller's transaction, so it goes out exactly when the change commits. */
export async function queueMail(deps: AccountDeps, tx: Database, to: string, mail: MailContent) {
  await deps.mail.queue({ to, ...mail }, { tx });
}

export const dayMs = 24 * 3600 * 1000;
export const codeLifetimeMs = {
  activation: 7 * dayMs,
  invitation: 14 * dayMs,
  password_reset: 3600 * 1000,
} as const;
