import type { MailServer, MailServerInput } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import type { MailRouter } from "../../platform/mail/organization-mailers.ts";
import { renderMail } from "../../platform/mail/render-mail.ts";
import { describeNetworkFailure, privateAddressMessage } from "../../platform/net/network-errors.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { UserService } from "../users/user.service.ts";
import { can, type MailServerAction } from "./mail-server.policy.ts";
import { findMailServer, type MailServerRow, saveMailServer } from "./mail-server.repo.ts";
import { connectionOf } from "./organization-mailer-cache.ts";
import { OrganizationSmtpMailer, openSmtpTransport, type SmtpConnection } from "./smtp-connection.ts";

export interface MailServerDeps {
  db: Database;
  membership: MembershipService;
  organizations: Pick<OrganizationService, "getTitle">;
  users: UserService;
  box: SecretBox;
  allowPrivateTargets: boolean;
  /** The organization's logo for the test mail, as every mail in its name carries it. */
  mail: Pick<MailRouter, "brand" | "attachmentsFor">;
}

/** What the mail server said, in one line, for the person who typed its settings. */
function serverSaid(error: unknown): string {
  const failure = error as { response?: string; message?: string };
  return (failure.response ?? failure.message ?? String(error)).split("\n")[0]?.slice(0, 300) ?? "";
}

/** Which field a failed connection points at. */
function connectionFailure(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (code === "EAUTH")
    return AppError.validation({ password: [`The server refused the login: ${serverSaid(error)}`] });
  const network = describeNetworkFailure(error);
  if (network === privateAddressMessage) return AppError.validation({ host: [network] });
  return AppError.validation({ host: [`Could not connect: ${network ?? serverSaid(error)}`] });
}

/**
 * The organization's own mail server: saved only once a connection (and login) succeeded, the
 * password sealed and never sent back, and a test mail to the person asking.
 */
export class MailServerService {
  constructor(private readonly deps: MailServerDeps) {}

  private async authorize(actorUserId: number, organizationId: number, action: MailServerAction) {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, action)) throw AppError.forbidden();
  }

  async get(actorUserId: number, organizationId: number): Promise<MailServer> {
    await this.authorize(actorUserId, organizationId, "mail-server:read");
    return show(await findMailServer(this.deps.db, organizationId));
  }

  async put(actorUserId: number, organizationId: number, input: MailServerInput): Promise<MailServer> {
    await this.authorize(actorUserId, organizationId, "mail-server:update");
    const saved = await findMailServer(this.deps.db, organizationId);
    // An empty password keeps the saved one.
    const savedPassword = saved?.sealedPassword ? this.deps.box.open(saved.sealedPassword) : null;
    const password = input.password || savedPassword;
    const connection: SmtpConnection = {
      host: input.host,
      port: input.port,
      security: input.security,
      username: input.username,
      password,
      fromName: input.from_name,
      fromEmail: input.from_email,
      replyTo: input.reply_to,
    };
    if (input.enabled) await this.verify(connection);
    const row = await saveMailServer(this.deps.db, organizationId, {
      host: input.host,
      port: input.port,
      security: input.security,
      username: input.username,
      sealedPassword: password ? this.deps.box.seal(password) : null,
      fromName: input.from_name,
      fromEmail: input.from_email,
      replyTo: input.reply_to,
      enabled: input.enabled,
    });
    return show(row);
  }

  /** Sends a test mail to the caller through the saved server; a failure answers the server's words. */
  async test(actorUserId: number, organizationId: number): Promise<{ detail: string }> {
    await this.authorize(actorUserId, organizationId, "mail-server:update");
    const row = await findMailServer(this.deps.db, organizationId);
    if (!row) throw AppError.badRequest("Save the mail server's settings first.");
    const me = await this.deps.users.findById(actorUserId);
    if (!me) throw AppError.unauthorized();
    const connection = connectionOf(row, this.deps.box);
    let mailer: OrganizationSmtpMailer | null = null;
    try {
      mailer = new OrganizationSmtpMailer(
        await openSmtpTransport(connection, this.deps.allowPrivateTargets),
        connection,
      );
      const mail = await renderMail(
        await this.deps.mail.brand({
          subject: "Tarmac: test mail through your mail server",
          organization: { id: organizationId, name: await this.deps.organizations.getTitle(organizationId) },
          title: "Test mail",
          blocks: [
            `This message went through ${row.host}:${row.port}. Mail about your organization now leaves this way${row.enabled ? "" : " once the mail server is enabled"}.`,
          ],
        }),
      );
      const attachments = await this.deps.mail.attachmentsFor(organizationId, mail.html);
      await mailer.send({ to: me.email, ...mail, attachments });
    } catch (error) {
      throw AppError.badRequest(describeNetworkFailure(error) ?? serverSaid(error));
    } finally {
      mailer?.close();
    }
    return { detail: `A test mail was sent to ${me.email}.` };
  }

  private async verify(connection: SmtpConnection): Promise<void> {
    let transport: Awaited<ReturnType<typeof openSmtpTransport>> | null = null;
    try {
      transport = await openSmtpTransport(connection, this.deps.allowPrivateTargets);
      await transport.verify();
    } catch (error) {
      throw connectionFailure(error);
    } finally {
      transport?.close();
    }
  }
}

function show(row: MailServerRow | null): MailServer {
  return {
    enabled: Boolean(row?.enabled),
    configured: Boolean(row),
    host: row?.host ?? "",
    port: row?.port ?? 587,
    security: (row?.security ?? "starttls") as MailServer["security"],
    username: row?.username ?? "",
    password_set: Boolean(row?.sealedPassword),
    from_name: row?.fromName ?? "",
    from_email: row?.fromEmail ?? "",
    reply_to: row?.replyTo ?? "",
    updated_at: row ? row.updatedAt.toISOString() : null,
  };
}
