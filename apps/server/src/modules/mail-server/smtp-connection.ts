import { isIP } from "node:net";
import type { MailSecurity } from "@tarmac/contracts";
import nodemailer, { type Transporter } from "nodemailer";
import type { Mailer, MailMessage } from "../../platform/mail/mailer.ts";
import { resolvePublicAddress } from "../../platform/net/outbound-target.ts";

export interface SmtpConnection {
  host: string;
  port: number;
  security: MailSecurity;
  username: string;
  password: string | null;
  fromName: string;
  fromEmail: string;
  replyTo: string;
}

/**
 * A pooled transport to an organization's mail server. It connects to the address that was
 * checked to be public (not to the name again), with the name kept for the TLS certificate.
 */
export async function openSmtpTransport(
  settings: SmtpConnection,
  allowPrivate: boolean,
): Promise<Transporter> {
  const address = await resolvePublicAddress(settings.host, allowPrivate);
  return nodemailer.createTransport({
    host: address,
    port: settings.port,
    secure: settings.security === "tls",
    requireTLS: settings.security === "starttls",
    ignoreTLS: settings.security === "none",
    ...(isIP(settings.host) ? {} : { tls: { servername: settings.host } }),
    auth: settings.username ? { user: settings.username, pass: settings.password ?? "" } : undefined,
    pool: true,
    maxConnections: 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/** The sender as an address object: nodemailer quotes and encodes the name itself. */
function sender(settings: SmtpConnection): { name: string; address: string } | string {
  const name = settings.fromName.trim();
  return name ? { name, address: settings.fromEmail } : settings.fromEmail;
}

/** Mail through an organization's own server, from its sender address. */
export class OrganizationSmtpMailer implements Mailer {
  readonly mode = "smtp";

  constructor(
    private readonly transport: Transporter,
    private readonly settings: SmtpConnection,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: sender(this.settings),
      ...(this.settings.replyTo ? { replyTo: this.settings.replyTo } : {}),
      ...message,
    });
  }

  close(): void {
    this.transport.close();
  }
}
