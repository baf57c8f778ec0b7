import { z } from "zod";
import { pageOf } from "./common.ts";

const limitValue = z.number().int().min(0).max(1_000_000_000);

/** What an organization may hold (0 = unlimited): space in MB, builds, projects, people. */
export const organizationLimits = z.object({
  space_limit: limitValue,
  build_limit: limitValue,
  projects_limit: limitValue,
  user_limit: limitValue,
});
export type OrganizationLimits = z.infer<typeof organizationLimits>;

/** `GET /api/admin/organizations/`: one organization of the instance, for its administrators. */
export const adminOrganization = z
  .object({
    id: z.number().int(),
    title: z.string(),
    subdomain: z.string(),
    created_at: z.string(),
    owner: z.object({ id: z.number().int(), email: z.string(), name: z.string() }).nullable(),
    plan: z.object({ id: z.number().int(), code: z.string(), title: z.string() }),
    /** The limits in force: the plan's, with the organization's own overrides over them. */
    limits: organizationLimits,
    /** Limits set for this organization alone (absent: the plan's). */
    overrides: organizationLimits.partial(),
    usage: z.object({
      space_used: z.number(),
      builds_count: z.number().int(),
      projects_count: z.number().int(),
      users_count: z.number().int(),
    }),
  })
  .meta({ id: "AdminOrganization" });
export type AdminOrganization = z.infer<typeof adminOrganization>;
export const adminOrganizationPage = pageOf(adminOrganization);

export const adminOrganizationsQuery = z.object({
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

/**
 * `PATCH /api/admin/organizations/{id}/`: `plan` by code; in `limits`, a number sets the
 * organization's own limit, null returns that limit to the plan's, a key left out keeps it.
 */
export const adminOrganizationPatch = z.object({
  plan: z.string().trim().min(1).max(50).optional(),
  limits: z
    .object({
      space_limit: limitValue.nullable().optional(),
      build_limit: limitValue.nullable().optional(),
      projects_limit: limitValue.nullable().optional(),
      user_limit: limitValue.nullable().optional(),
    })
    .optional(),
});
export type AdminOrganizationPatch = z.infer<typeof adminOrganizationPatch>;

/** One entry of an organization's activity log. */
export const organizationActivityEntry = z
  .object({
    id: z.number().int(),
    action: z.string(),
    details: z.record(z.string(), z.unknown()),
    actor: z.object({ id: z.number().int(), email: z.string() }).nullable(),
    created_at: z.string(),
  })
  .meta({ id: "OrganizationActivity" });
export type OrganizationActivityEntry = z.infer<typeof organizationActivityEntry>;
export const organizationActivityPage = pageOf(organizationActivityEntry);
export const activityQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});
