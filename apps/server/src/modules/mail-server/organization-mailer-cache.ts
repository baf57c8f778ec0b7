import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Mailer } from "../../platform/mail/mailer.ts";
import { findMailServer, type MailServerRow } from "./mail-server.repo.ts";
import { OrganizationSmtpMailer, openSmtpTransport, type SmtpConnection } from "./smtp-connection.ts";

/** A transport is rebuilt at least this often, so a mail server's new DNS address is followed. */
const transportLifetimeMs = 10 * 60_000;

export function connectionOf(row: MailServerRow, box: SecretBox): SmtpConnection {
  return {
    host: row.host,
    port: row.port,
    security: row.security as SmtpConnection["security"],
    username: row.username,
    password: row.sealedPassword ? box.open(row.sealedPassword) : null,
    fromName: row.fromName,
    fromEmail: row.fromEmail,
    replyTo: row.replyTo,
  };
}

/**
 * One pooled transport per organization with an enabled mail server, rebuilt when its settings
 * change (the row's revision, read on every send, so every process follows a change at once).
 */
export class OrganizationMailerCache {
  private readonly mailers = new Map<number, { revision: number; openedAt: number; mailer: Mailer }>();

  constructor(private readonly deps: { db: Database; box: SecretBox; allowPrivateTargets: boolean }) {}

  async mailerFor(organizationId: number): Promise<Mailer | null> {
    const row = await findMailServer(this.deps.db, organizationId);
    const cached = this.mailers.get(organizationId);
    const fresh =
      cached && row && cached.revision === row.revision && Date.now() - cached.openedAt < transportLifetimeMs;
    if (fresh && row.enabled) return cached.mailer;
    if (cached) {
      cached.mailer.close();
      this.mailers.delete(organizationId);
    }
    if (!row?.enabled) return null;
    const connection = connectionOf(row, this.deps.box);
    const transport = await openSmtpTransport(connection, this.deps.allowPrivateTargets);
    const mailer = new OrganizationSmtpMailer(transport, connection);
    this.mailers.set(organizationId, { revision: row.revision, openedAt: Date.now(), mailer });
    return mailer;
  }

  close(): void {
    for (const { mailer } of this.mailers.values()) mailer.close();
    this.mailers.clear();
  }
}
