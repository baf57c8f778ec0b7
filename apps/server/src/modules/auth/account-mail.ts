/** The account e-mails, in English, as plain text plus simple HTML. Links point at the web app. */

import { escapeHtml } from "../../platform/mail/escape-html.ts";

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function compose(subject: string, paragraphs: string[], link?: { url: string; label: string }): MailContent {
  const textParts = [...paragraphs];
  const htmlParts = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`);
  if (link) {
    textParts.splice(1, 0, `${link.label}: ${link.url}`);
    htmlParts.splice(1, 0, `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`);
  }
  return {
    subject,
    text: `${textParts.join("\n\n")}\n\n— Tarmac\n`,
    html: `<!doctype html><html><body>${htmlParts.join("")}<p>— Tarmac</p></body></html>`,
  };
}

export function activationMail(publicUrl: string, code: string): MailContent {
  return compose(
    "Activate your Tarmac account",
    [
      "Welcome to Tarmac. Please confirm your e-mail address to activate your account.",
      "The link is valid for 7 days. If you did not sign up, ignore this message.",
    ],
    { url: `${publicUrl}/activate/${encodeURIComponent(code)}`, label: "Activate your account" },
  );
}

export function invitationMail(
  publicUrl: string,
  code: string,
  inviterName: string,
  organizationTitle?: string,
): MailContent {
  const where = organizationTitle ? `the organization "${organizationTitle}" on Tarmac` : "Tarmac";
  return compose(
    organizationTitle ? `You are invited to ${organizationTitle} on Tarmac` : "You are invited to Tarmac",
    [
      `${inviterName} invited you to join ${where}. Choose a password to accept the invitation.`,
      "The link is valid for 14 days. If you did not expect this invitation, ignore this message.",
    ],
    { url: `${publicUrl}/activate/${encodeURIComponent(code)}`, label: "Accept the invitation" },
  );
}

/** To someone who already has an account: nothing changes until they answer. */
export function organizationInvitationMail(
  publicUrl: string,
  inviterName: string,
  organizationTitle: string,
): MailContent {
  return compose(
    `You are invited to ${organizationTitle} on Tarmac`,
    [
      `${inviterName} invited you to join the organization "${organizationTitle}" on Tarmac.`,
      "Sign in with your usual account to accept or decline. Until you accept, the organization has no access to your account, and the invitation ends after 14 days.",
    ],
    { url: `${publicUrl}/dashboard/invitations`, label: "See the invitation" },
  );
}

export function passwordResetMail(publicUrl: string, code: string): MailContent {
  return compose(
    "Reset your Tarmac password",
    [
      "Someone asked to reset the password of your Tarmac account. Use the link to choose a new one.",
      "The link is valid for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.",
    ],
    { url: `${publicUrl}/update-password?code=${encodeURIComponent(code)}`, label: "Choose a new password" },
  );
}
