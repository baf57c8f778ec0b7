import { z } from "zod";
import { organizationSelector } from "./common.ts";

/** A plan as offered on the pricing page: space in MB, price in major units, 0 limits = unlimited. */
export const tariff = z
  .object({
    id: z.number().int(),
    code: z.string(),
    title: z.string(),
    price: z.number(),
    currency: z.string(),
    space_limit: z.number(),
    build_limit: z.number().int(),
    projects_limit: z.number().int(),
    user_limit: z.number().int(),
  })
  .meta({ id: "Tariff" });
export type Tariff = z.infer<typeof tariff>;

export const tariffList = z.array(tariff);

export const usageQuery = organizationSelector;

/** An organization's plan data (spec §3): usage against limits, 0 = unlimited, space in MB with two decimals. */
export const usageCounters = {
  space_used: z.number(),
  space_limit: z.number(),
  builds_count: z.number().int(),
  build_limit: z.number().int(),
  projects_count: z.number().int(),
  projects_limit: z.number().int(),
  users_count: z.number().int(),
  user_limit: z.number().int(),
};

export const organizationUsage = z
  .object({
    org_id: z.number().int(),
    ...usageCounters,
    /** Uploads waiting for confirmation: they hold their space (MB) and a build slot for 24 hours. */
    pending_uploads: z.number().int(),
    pending_space: z.number(),
    critical: z.boolean(),
    /**
     * Who lifts a limit on this instance: `billing` (a larger plan, bought on the Plan page) or
     * `administrator` (the instance administrator, at `administrator_email` when one is known).
     */
    limits_managed_by: z.enum(["billing", "administrator"]),
    administrator_email: z.string().nullable(),
  })
  .meta({ id: "OrganizationUsage" });
export type OrganizationUsage = z.infer<typeof organizationUsage>;
