import { z } from "zod";
import { pageOf } from "./common.ts";

export const outboxMessage = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  /** What the mail carried besides its text: the organization's logo, shown inline by `cid`. */
  attachments: z.array(
    z.object({
      filename: z.string(),
      content_type: z.string(),
      cid: z.string().nullable(),
      size: z.number().int(),
    }),
  ),
  created_at: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

export const outboxQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
  to: z.string().max(254).optional(),
});

export const outboxPage = pageOf(outboxMessage);
