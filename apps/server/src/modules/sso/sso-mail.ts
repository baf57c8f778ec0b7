import { escapeHtml } from "../../platform/mail/escape-html.ts";

/** The mail that lets a person link their account to their organization's sign-in. */
export function linkRequestMail(publicUrl: string, code: string, organizationTitle: string) {
  const url = `${publicUrl}/login-custom-client?sso_link=${encodeURIComponent(code)}`;
  const paragraphs = [
    `Someone just signed in at the single sign-on of "${organizationTitle}" with this address, which belongs to your Tarmac account.`,
    `If it was you, link the two: from then on that sign-in opens your account. The link is valid for 1 hour.`,
    "If it was not you, ignore this message: nothing changes, and your account stays closed to that sign-in.",
  ];
  return {
    subject: `Link your Tarmac account to ${organizationTitle}'s sign-in?`,
    text: `${paragraphs[0]}\n\n${paragraphs[1]}\n\nLink my account: ${url}\n\n${paragraphs[2]}\n\n— Tarmac\n`,
    html: `<!doctype html><html><body><p>${escapeHtml(paragraphs[0] as string)}</p><p>${escapeHtml(
      paragraphs[1] as string,
    )}</p><p><a href="${escapeHtml(url)}">Link my account</a></p><p>${escapeHtml(
      paragraphs[2] as string,
    )}</p><p>— Tarmac</p></body></html>`,
  };
}
