/**
 * What one e-mail says, written once: the HTML layout (`layout.tsx`) and the plain-text part
 * (`render-mail.ts`) are both drawn from it, so the two never tell different things.
 */

/** The one thing the mail asks the reader to do: a button, with its link written out below it. */
export interface MailButton {
  button: string;
  url: string;
}

/**
 * A piece of the mail's body, in reading order: a paragraph (its line breaks are kept), a
 * passage or a list under a heading, or a button.
 */
export type MailBlock =
  | string
  | { heading: string; text: string }
  | { heading: string; items: string[] }
  | MailButton;

export interface MailContent {
  subject: string;
  /**
   * The organization the mail speaks for: its name heads the mail, and the mail leaves through
   * the organization's own mail server when it has one. Absent: Tarmac's own mail.
   */
  organization?: { id: number; name: string; logo?: boolean };
  title: string;
  blocks: MailBlock[];
  /** A note in small type under the body: how long a link lasts, what to do if unexpected. */
  smallPrint?: string;
}

/** The content id by which the HTML shows the organization's logo, carried inside the mail. */
export const organizationLogoCid = "organization-logo";

/** The name that heads the mail. */
export function brandOf(content: MailContent): string {
  return content.organization?.name ?? "Tarmac";
}

/** The signature under the mail. */
export function signatureOf(content: MailContent): string {
  return content.organization ? `${content.organization.name} via Tarmac` : "Tarmac";
}

/** The first paragraph, which mail clients show beside the subject in the inbox. */
export function previewOf(content: MailContent): string {
  return content.blocks.find((block): block is string => typeof block === "string") ?? content.title;
}
