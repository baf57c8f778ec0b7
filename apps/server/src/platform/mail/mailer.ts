import nodemailer, { type Transporter } from "nodemailer";
import type { Database } from "../db/client.ts";
import { mailOutbox } from "./outbox.tables.ts";

/** A file carried by a mail; with `cid`, an image the HTML shows inline (`src="cid:…"`). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  cid?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  readonly mode: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface SmtpSettings {
  host: string;
  port: number;
  secure?: boolean;
  user?: string;
  password?: string;
  from: string;
}

/** Real delivery through one pooled SMTP transport. Port 465 means implicit TLS unless told otherwise. */
export class SmtpMailer implements Mailer {
  readonly mode = "smtp";
  private readonly transport: Transporter;

  constructor(private readonly settings: SmtpSettings) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure ?? settings.port === 465,
      pool: true,
      maxConnections: 3,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? "" } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.settings.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}

/** Without SMTP (embedded mode) messages are kept in the database for an instance administrator to read. */
export class OutboxMailer implements Mailer {
  readonly mode = "outbox";

  constructor(private readonly db: Database) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(mailOutbox).values({
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html ?? null,
      attachments: message.attachments?.length
        ? message.attachments.map(({ content, ...rest }) => ({
            ...rest,
            content: content.toString("base64"),
          }))
        : null,
    });
  }

  close(): void {}
}
