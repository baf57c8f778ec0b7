import { z } from "zod";
import { pageOf } from "./common.ts";

/** Host labels the service itself uses; an organization cannot take them. */
export const reservedSubdomains = [
  "www",
  "api",
  "admin",
  "app",
  "mail",
  "static",
  "media",
  "docs",
  "status",
  "help",
  "support",
  "blog",
] as const;

export const subdomainField = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, "Ensure this field has at least 3 characters.")
  .max(40, "Ensure this field has no more than 40 characters.")
  .regex(
    /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/,
    "Use only letters a-z, digits and hyphens; no hyphen at the start or end.",
  )
  .refine(
    (value) => !(reservedSubdomains as readonly string[]).includes(value),
    "This subdomain is reserved.",
  );

export const organizationTitleField = z
  .string()
  .trim()
  .min(1, "This field may not be blank.")
  .max(100, "Ensure this field has no more than 100 characters.");

export const planSummary = z.object({ id: z.number().int(), code: z.string(), title: z.string() });

export const organization = z
  .object({
    id: z.number().int(),
    title: z.string(),
    subdomain: z.string(),
    logo: z.string().nullable(),
    role: z.number().int(),
    user_limit: z.number().int(),
    users_count: z.number().int(),
    plan: planSummary,
    created_at: z.string(),
    /** Only roles 1-2 see it; null for everyone else. */
    sdk_key: z.string().nullable(),
    limit_notice_sent: z.boolean().optional(),
  })
  .meta({ id: "Organization" });
export type Organization = z.infer<typeof organization>;

export const organizationPage = pageOf(organization);

export const createOrganizationInput = z.object({
  title: organizationTitleField,
  subdomain: subdomainField,
});
export type CreateOrganizationInput = z.infer<typeof createOrganizationInput>;

export const updateOrganizationInput = createOrganizationInput;
export const patchOrganizationInput = createOrganizationInput.partial();
export type PatchOrganizationInput = z.infer<typeof patchOrganizationInput>;

const flag = z.enum(["1", "true"]).optional();

export const organizationDetailQuery = z.object({ newsdkkey: flag, sendemaillimit: flag });

export const organizationIdParams = z.object({ id: z.coerce.number().int().positive() });

/**
 * Spec §3: `{password}` alone; the organization is `organization` when given, else the request's
 * `?org=` / `?subdomain=`, else the caller's only organization (several: 400 asking for `org`).
 */
export const deleteOrganizationInput = z.object({
  organization: z.number().int().positive().optional(),
  password: z.string().min(1, "This field may not be blank.").max(1000),
});
export type DeleteOrganizationInput = z.infer<typeof deleteOrganizationInput>;

export const ownerTransferInput = z.object({
  organization: z.number().int().positive(),
  user: z.number().int().positive(),
});
export type OwnerTransferInput = z.infer<typeof ownerTransferInput>;

/** A 400 body: `{detail}`, per-field `{field: [messages]}`, or `{error_code, detail}`. */
export const badRequestBody = z.record(z.string(), z.unknown()).meta({ id: "BadRequest" });
