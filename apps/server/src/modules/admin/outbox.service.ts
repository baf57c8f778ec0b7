/** Owns the dev outbox: mail kept in the database when no SMTP server is configured. */
import type { OutboxMessage } from "@tarmac/contracts";
import type { PageParams } from "../../http/pagination.ts";
import type { Database } from "../../platform/db/client.ts";
import { listOutbox } from "../../platform/mail/outbox.repo.ts";

export class OutboxService {
  constructor(private readonly deps: { db: Database }) {}

  async list(params: PageParams, to?: string): Promise<{ count: number; results: OutboxMessage[] }> {
    const { count, rows } = await listOutbox(this.deps.db, {
      to: to?.toLowerCase(),
      limit: params.pageSize,
      offset: params.offset,
    });
    return {
      count,
      results: rows.map((row) => ({
        id: row.id,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        attachments: (row.attachments ?? []).map((attachment) => ({
          filename: attachment.filename,
          content_type: attachment.contentType,
          cid: attachment.cid ?? null,
          size: Buffer.byteLength(attachment.content, "base64"),
        })),
        created_at: row.createdAt.toISOString(),
      })),
    };
  }
}
