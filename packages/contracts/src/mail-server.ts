import { z } from "zod";

/** How the connection to the mail server is secured: STARTTLS (587), implicit TLS (465), or none. */
export const mailSecurities = ["starttls", "tls", "none"] as const;
export type MailSecurity = (typeof mailSecurities)[number];

/** `GET/PUT /api/orgs-smtp/{id}/`: the organization's own mail server. The password is never sent back. */
export const mailServer = z
  .object({
    enabled: z.boolean(),
    configured: z.boolean(),
    host: z.string(),
    port: z.number().int(),
    security: z.enum(mailSecurities),
    username: z.string(),
    password_set: z.boolean(),
    from_name: z.string(),
    from_email: z.string(),
    reply_to: z.string(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "MailServer" });
export type MailServer = z.infer<typeof mailServer>;

const longest = (length: number) => `Ensure this field has no more than ${length} characters.`;

export const mailServerInput = z.object({
  host: z.string().trim().min(1, "This field may not be blank.").max(255, longest(255)),
  port: z.coerce.number().int().min(1).max(65535).default(587),
  security: z.enum(mailSecurities).default("starttls"),
  username: z.string().trim().max(256, longest(256)).default(""),
  /** Left out (or empty) to keep the saved password. */
  password: z.string().max(512, longest(512)).optional(),
  from_name: z.string().trim().max(100, longest(100)).default(""),
  from_email: z.email("Enter a valid email address."),
  reply_to: z.union([z.email("Enter a valid email address."), z.literal("")]).default(""),
  enabled: z.boolean().default(true),
});
export type MailServerInput = z.infer<typeof mailServerInput>;
