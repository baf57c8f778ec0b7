import { z } from "zod";
import { planSummary } from "./organization.ts";
import { usageCounters } from "./plan.ts";

export const profileOrgData = z.object({
  org_id: z.number().int(),
  title: z.string(),
  subdomain: z.string(),
  logo: z.string().nullable(),
  role: z.number().int(),
  ...usageCounters,
  plan: planSummary.optional(),
});
export type ProfileOrgData = z.infer<typeof profileOrgData>;

export const profile = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  is_active: z.boolean(),
  two_factor_enabled: z.boolean(),
  welcome_closed: z.boolean(),
  date_joined: z.string(),
  org_data: z.array(profileOrgData),
  /** Whether this session may use the instance's administration (ADMIN_EMAILS, password sign-in). */
  is_instance_admin: z.boolean(),
});
export type Profile = z.infer<typeof profile>;

/** `GET /api/profiles/api-key/`: whether the caller already holds an API key (the key itself is never shown again). */
export const apiKeyState = z.object({ has_api_key: z.boolean() });
export type ApiKeyState = z.infer<typeof apiKeyState>;

export const profileQuery = z.object({
  close_welcome: z.string().optional(),
  org: z.coerce.number().int().optional(),
  subdomain: z.string().max(63).optional(),
  s: z.string().max(200).optional(),
  full: z.string().optional(),
  ms: z.string().optional(),
});

export const profileParams = z.object({ user_id: z.coerce.number().int().min(0) });
export const profileUpdateInput = z.object({
  first_name: z.string().trim().max(150),
  last_name: z.string().trim().max(150),
});
export type ProfileUpdateInput = z.infer<typeof profileUpdateInput>;
export const profileDeleteInput = z.object({ password: z.string().min(1).max(1024) });
export type ProfileDeleteInput = z.infer<typeof profileDeleteInput>;
