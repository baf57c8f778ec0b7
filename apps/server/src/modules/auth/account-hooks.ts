import type { Database } from "../../platform/db/client.ts";

type InvitationUsed = (userId: number, organizationId: number | null, tx: Database) => Promise<void>;
type MailboxProven = (userId: number, tx: Database) => Promise<void>;

/**
 * What later modules do when something only the auth module sees happens to an account: the
 * staff module accepts the invitation whose mailed link was used; the sso module forgets what
 * an identity provider made of an address whose owner has now proven the mailbox.
 */
export class AccountHooks {
  private readonly invitationHandlers: InvitationUsed[] = [];
  private readonly mailboxHandlers: MailboxProven[] = [];

  /** `organizationId` is null for links mailed before invitations named their organization. */
  onInvitationUsed(handler: InvitationUsed): void {
    this.invitationHandlers.push(handler);
  }

  /** A code sent to the address was used: whoever holds the mailbox holds the account. */
  onMailboxProven(handler: MailboxProven): void {
    this.mailboxHandlers.push(handler);
  }

  async invitationUsed(userId: number, organizationId: number | null, tx: Database): Promise<void> {
    for (const handler of this.invitationHandlers) await handler(userId, organizationId, tx);
  }

  async mailboxProven(userId: number, tx: Database): Promise<void> {
    for (const handler of this.mailboxHandlers) await handler(userId, tx);
  }
}
