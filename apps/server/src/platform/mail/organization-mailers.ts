import type { Database } from "../db/client.ts";
import { type MailContent, organizationLogoCid } from "./mail-content.ts";
import type { MailAttachment, Mailer, MailMessage } from "./mailer.ts";

/**
 * The mail server an organization brought, when it has one enabled; null means the instance's.
 * Installed by the module that owns those settings.
 */
export type OrganizationMailers = (organizationId: number) => Promise<Mailer | null>;

/**
 * An organization's logo as a small PNG for mail, or null when it has none; read in `tx` when
 * given (a caller inside a transaction). Installed by the module that owns logos.
 */
export type OrganizationLogos = (organizationId: number, tx?: Database) => Promise<Buffer | null>;

/**
 * Picks the mailer for a message (the organization's own server, else the instance's) and
 * carries the organization's logo: mail clients load no image that needs a session, so the
 * logo travels inside the mail as an inline attachment the HTML shows by its content id.
 */
export class MailRouter {
  private organizations: OrganizationMailers = async () => null;
  private closeOrganizations: () => void = () => undefined;
  private logos: OrganizationLogos = async () => null;

  constructor(readonly instance: Mailer) {}

  /** `close` ends the organizations' pooled connections when the process stops. */
  useOrganizationMailers(organizations: OrganizationMailers, close: () => void): void {
    this.organizations = organizations;
    this.closeOrganizations = close;
  }

  useOrganizationLogos(logos: OrganizationLogos): void {
    this.logos = logos;
  }

  close(): void {
    this.closeOrganizations();
    this.instance.close();
  }

  async mailerFor(organizationId: number | undefined): Promise<Mailer> {
    if (organizationId === undefined) return this.instance;
    return (await this.organizations(organizationId)) ?? this.instance;
  }

  /** The content with its organization's logo in the header when it has one. */
  async brand(content: MailContent, tx?: Database): Promise<MailContent> {
    const { organization } = content;
    if (!organization || !(await this.logos(organization.id, tx))) return content;
    return { ...content, organization: { ...organization, logo: true } };
  }

  /** The inline attachments the HTML refers to: the logo, while the organization still has one. */
  async attachmentsFor(
    organizationId: number | undefined,
    html: string | undefined,
  ): Promise<MailAttachment[]> {
    if (organizationId === undefined || !html?.includes(`cid:${organizationLogoCid}`)) return [];
    const logo = await this.logos(organizationId);
    if (!logo) return [];
    return [{ filename: "logo.png", contentType: "image/png", content: logo, cid: organizationLogoCid }];
  }

  /** Sends through the organization's mailer, with the attachments its HTML shows. */
  async send(organizationId: number | undefined, message: MailMessage): Promise<void> {
    const attachments = await this.attachmentsFor(organizationId, message.html);
    const mailer = await this.mailerFor(organizationId);
    await mailer.send(attachments.length > 0 ? { ...message, attachments } : message);
  }

  /**
   * The HTML as a browser shows it in a preview: the logo a mail client finds by content id is
   * put in place as a data: address, the very image the mail carries.
   */
  async inlinedForPreview(organizationId: number | undefined, html: string): Promise<string> {
    const [logo] = await this.attachmentsFor(organizationId, html);
    if (!logo) return html;
    return html.replaceAll(
      `cid:${organizationLogoCid}`,
      `data:image/png;base64,${logo.content.toString("base64")}`,
    );
  }
}
