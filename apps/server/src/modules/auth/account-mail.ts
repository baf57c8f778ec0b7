/** The account e-mails, in English. Links point at the web app. */

import type { MailContent } from "../../platform/mail/mail-content.ts";

export function activationMail(publicUrl: string, code: string): MailContent {
  return {
    subject: "Activate your Tarmac account",
    title: "Activate your account",
    blocks: [
      "Welcome to Tarmac. Please confirm your e-mail address to activate your account.",
      { button: "Activate your account", url: `${publicUrl}/activate/${encodeURIComponent(code)}` },
    ],
    smallPrint: "The link is valid for 7 days. If you did not sign up, ignore this message.",
  };
}

/** `organization`: the invitation is to that organization, and the mail is in its name. */
export function invitationMail(
  publicUrl: string,
  code: string,
  inviterName: string,
  organization?: { id: number; name: string },
): MailContent {
  const where = organization ? `the organization "${organization.name}" on Tarmac` : "Tarmac";
  return {
    subject: organization ? `You are invited to ${organization.name} on Tarmac` : "You are invited to Tarmac",
    ...(organization ? { organization } : {}),
    title: organization ? `Join ${organization.name}` : "Join Tarmac",
    blocks: [
      `${inviterName} invited you to join ${where}. Choose a password to accept the invitation.`,
      { button: "Accept the invitation", url: `${publicUrl}/activate/${encodeURIComponent(code)}` },
    ],
    smallPrint: "The link is valid for 14 days. If you did not expect this invitation, ignore this message.",
  };
}

/** To someone who already has an account: nothing changes until they answer. */
export function organizationInvitationMail(
  publicUrl: string,
  inviterName: string,
  organization: { id: number; name: string },
): MailContent {
  return {
    subject: `You are invited to ${organization.name} on Tarmac`,
    organization,
    title: `Join ${organization.name}`,
    blocks: [
      `${inviterName} invited you to join the organization "${organization.name}" on Tarmac.`,
      { button: "See the invitation", url: `${publicUrl}/dashboard/invitations` },
    ],
    smallPrint:
      "Sign in with your usual account to accept or decline. Until you accept, the organization has no access to your account, and the invitation ends after 14 days.",
  };
}

export function passwordResetMail(publicUrl: string, code: string): MailContent {
  return {
    subject: "Reset your Tarmac password",
    title: "Choose a new password",
    blocks: [
      "Someone asked to reset the password of your Tarmac account. Use the link to choose a new one.",
      {
        button: "Choose a new password",
        url: `${publicUrl}/update-password?code=${encodeURIComponent(code)}`,
      },
    ],
    smallPrint:
      "The link is valid for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.",
  };
}
