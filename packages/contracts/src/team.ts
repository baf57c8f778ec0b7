import { z } from "zod";
import { pageOf } from "./common.ts";

const titleField = z
  .string()
  .trim()
  .min(1, "This field may not be blank.")
  .max(100, "Ensure this field has no more than 100 characters.");
const userIds = z.array(z.number().int().positive()).max(1000);

export const team = z
  .object({
    id: z.number().int(),
    title: z.string(),
    organization: z.number().int(),
    users: z.array(z.number().int()),
  })
  .meta({ id: "Team" });
export type Team = z.infer<typeof team>;
export const teamPage = pageOf(team);

export const teamUser = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});
export const orgTeam = z
  .object({
    id: z.number().int(),
    title: z.string(),
    organization: z.number().int(),
    users: z.array(teamUser),
  })
  .meta({ id: "OrgTeam" });
export type OrgTeam = z.infer<typeof orgTeam>;
export const orgTeamPage = pageOf(orgTeam);

export const createTeamInput = z.object({
  title: titleField,
  organization: z.number().int().positive(),
  users: userIds.default([]),
});
export type CreateTeamInput = z.infer<typeof createTeamInput>;

/** PUT carries the whole team; `organization` may be repeated but never changed. */
export const updateTeamInput = z.object({
  title: titleField,
  organization: z.number().int().positive().optional(),
  users: userIds.default([]),
});
export type UpdateTeamInput = z.infer<typeof updateTeamInput>;

export const teamListQuery = z.object({
  s: z.string().trim().max(200).optional(),
  org: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

export const teamIdParams = z.object({ id: z.coerce.number().int().positive() });
