import type { Mailer } from "./mailer.ts";

/**
 * The mail server an organization brought, when it has one enabled; null means the instance's.
 * Installed by the module that owns those settings.
 */
export type OrganizationMailers = (organizationId: number) => Promise<Mailer | null>;

/** Picks the mailer for a message: the organization's own server, else the instance's. */
export class MailRouter {
  private organizations: OrganizationMailers = async () => null;
  private closeOrganizations: () => void = () => undefined;

  constructor(readonly instance: Mailer) {}

  /** `close` ends the organizations' pooled connections when the process stops. */
  useOrganizationMailers(organizations: OrganizationMailers, close: () => void): void {
    this.organizations = organizations;
    this.closeOrganizations = close;
  }

  close(): void {
    this.closeOrganizations();
    this.instance.close();
  }

  async mailerFor(organizationId: number | undefined): Promise<Mailer> {
    if (organizationId === undefined) return this.instance;
    return (await this.organizations(organizationId)) ?? this.instance;
  }
}
