import type { Database } from "../../platform/db/client.ts";

/**
 * What organizations and staff need from the accounts part: password checks, invitations,
 * two-factor reset and API keys. app.ts hands in the accounts services behind this shape.
 */
export interface AccountsPort {
  verifyPassword(userId: number, password: string): Promise<boolean>;
  /** Creates an inactive user and e-mails an invitation, inside the caller's transaction. */
  inviteByEmail(
    input: { email: string; firstName: string; lastName: string; invitedBy: number },
    tx: Database,
  ): Promise<{ userId: number }>;
  resendInvitation(userId: number): Promise<void>;
  disableTwoFactor(userId: number): Promise<void>;
  /** Revokes the user's previous API key and returns the new one (shown once). */
  rotateApiKey(userId: number): Promise<string>;
}
