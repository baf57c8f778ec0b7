import type { MailContent } from "../../platform/mail/mail-content.ts";

/** The mail that lets a person link their account to their organization's sign-in. */
export function linkRequestMail(publicUrl: string, code: string, organizationTitle: string): MailContent {
  return {
    subject: `Link your Tarmac account to ${organizationTitle}'s sign-in?`,
    title: "Link your account?",
    blocks: [
      `Someone just signed in at the single sign-on of "${organizationTitle}" with this address, which belongs to your Tarmac account.`,
      `If it was you, link the two: from then on that sign-in opens your account. The link is valid for 1 hour.`,
      {
        button: "Link my account",
        url: `${publicUrl}/login-custom-client?sso_link=${encodeURIComponent(code)}`,
      },
    ],
    smallPrint:
      "If it was not you, ignore this message: nothing changes, and your account stays closed to that sign-in.",
  };
}
