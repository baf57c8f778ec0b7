import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** An attachment as kept in the outbox: its bytes in base64. */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  content: string;
  cid?: string;
}

/** Messages kept instead of sent when no SMTP server is configured (embedded/dev mode). */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    attachments: jsonb("attachments").$type<OutboxAttachment[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("mail_outbox_to_idx").on(table.toAddress)],
);
