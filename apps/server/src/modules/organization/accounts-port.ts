import type { Database } from "../../platform/db/client.ts";

/**
 * What organizations and staff need from the accounts part: password checks, invitations,
 * two-factor reset and API keys. app.ts hands in the accounts services behind this shape.
 */
export interface AccountsPort {
  verifyPassword(userId: number, password: string): Promise<boolean>;
  /** Invites by e-mail (an unknown address becomes an inactive user), inside `tx` when given. */
  inviteByEmail(
    input: {
      email: string;
      firstName: string;
      lastName: string;
      invitedByUserId: number;
      organizationTitle?: string;
    },
    options: { tx?: Database },
  ): Promise<{ userId: number; created: boolean }>;
  resendInvitation(
    userId: number,
    options?: { invitedByUserId?: number; organizationTitle?: string },
  ): Promise<void>;
  disableTwoFactor(userId: number): Promise<void>;
  /** Revokes the user's previous API keys and returns the new one (shown once). */
  rotateApiKey(userId: number): Promise<string>;
}
