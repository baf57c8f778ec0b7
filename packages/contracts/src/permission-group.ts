import { z } from "zod";
import { organizationSelector, pageOf } from "./common.ts";

/**
 * Permission groups (Updraft's "permission groups"): groups of organization members, each
 * granting its members access to projects, in every environment. A member's access to a project
 * is the union of their own project membership and their groups' grants.
 */
const titleField = z
  .string()
  .trim()
  .min(1, "This field may not be blank.")
  .max(150, "Ensure this field has no more than 150 characters.");
const idList = z.array(z.number().int().positive()).max(1000);

export const permissionGroup = z
  .object({
    id: z.number().int(),
    title: z.string(),
    organization: z.number().int(),
    /** How many members the group has. */
    members: z.number().int(),
    /** The members' user ids. */
    users: z.array(z.number().int()),
    /** The projects the group grants (project ids, as `project_app` of an app). */
    projects: z.array(z.number().int()),
    created_at: z.string(),
  })
  .meta({ id: "PermissionGroup" });
export type PermissionGroup = z.infer<typeof permissionGroup>;
export const permissionGroupPage = pageOf(permissionGroup);

export const permissionGroupListQuery = organizationSelector.extend({
  s: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

export const createPermissionGroupInput = z.object({
  title: titleField,
  organization: z.number().int().positive(),
  projects: idList.default([]),
  users: idList.default([]),
});
export type CreatePermissionGroupInput = z.infer<typeof createPermissionGroupInput>;

/** PUT and PATCH: the fields given replace the group's (lists are replaced whole). */
export const updatePermissionGroupInput = z.object({
  title: titleField.optional(),
  projects: idList.optional(),
  users: idList.optional(),
});
export type UpdatePermissionGroupInput = z.infer<typeof updatePermissionGroupInput>;

/** POST /api/useringrouporg/: puts a member into these groups (other groups are kept). */
export const userInGroupsInput = z.object({
  user: z.number().int().positive(),
  groups: idList.min(1, "This list may not be empty."),
});
export type UserInGroupsInput = z.infer<typeof userInGroupsInput>;

/** A member's permission groups. */
export const userInGroups = z.object({
  user: z.number().int(),
  groups: z.array(z.number().int()),
});
export type UserInGroups = z.infer<typeof userInGroups>;

export const userInGroupsQuery = organizationSelector.extend({
  user: z.coerce.number().int().positive(),
});
