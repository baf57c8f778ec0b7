import { z } from "zod";
import { pageOf } from "./common.ts";

/** A project role: 2 admin, 3 mobile user, 4 team manager, 5 tester (1 is the organization owner). */
export const projectRole = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)], {
  error: "Choose one of the roles 2, 3, 4 or 5.",
});

const envList = z
  .array(z.string().trim().min(1).max(100, "Ensure this field has no more than 100 characters."))
  .max(50);

/** Spec §3 "Project user" plus the person's names. */
export const projectMember = z
  .object({
    id: z.number().int(),
    user: z.number().int(),
    project: z.number().int(),
    role: z.number().int(),
    is_access_all_envs: z.boolean(),
    access_envs: z.array(z.string()),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    /** Whether the person has not accepted the organization invitation yet. */
    is_pending: z.boolean(),
  })
  .meta({ id: "ProjectMember" });
export type ProjectMember = z.infer<typeof projectMember>;
export const projectMemberPage = pageOf(projectMember);

/** GET /api/usersinproject/; with resend=1 and user (or id) it resends the invitation instead. */
export const projectMemberListQuery = z.object({
  project: z.coerce.number().int().positive(),
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  resend: z.enum(["1", "true"]).optional(),
  user: z.coerce.number().int().positive().optional(),
  id: z.coerce.number().int().positive().optional(),
});
export type ProjectMemberListQuery = z.infer<typeof projectMemberListQuery>;

export const createProjectMemberInput = z.object({
  user: z.number().int().positive(),
  project: z.number().int().positive(),
  role: projectRole,
  is_access_all_envs: z.boolean().default(true),
  access_envs: envList.default([]),
});
export type CreateProjectMemberInput = z.infer<typeof createProjectMemberInput>;

/** PUT: the member's role and environments; user and project cannot change. */
export const updateProjectMemberInput = z.object({
  user: z.number().int().positive().optional(),
  project: z.number().int().positive().optional(),
  role: projectRole,
  is_access_all_envs: z.boolean().default(true),
  access_envs: envList.default([]),
});
export type UpdateProjectMemberInput = z.infer<typeof updateProjectMemberInput>;

/** GET /api/applications/{id}/project_combined_users/: admins (all access) plus project members. */
export const projectCombinedUser = z.object({
  /** The project membership id; null for an organization admin without one. */
  id: z.number().int().nullable(),
  user: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** The role in the organization. */
  org_role: z.number().int(),
  /** The role in the project (the organization role for admins). */
  role: z.number().int(),
  is_admin: z.boolean(),
  is_access_all_envs: z.boolean(),
  access_envs: z.array(z.string()),
});
export type ProjectCombinedUser = z.infer<typeof projectCombinedUser>;
export const projectCombinedUserPage = pageOf(projectCombinedUser);

export const projectCombinedUsersQuery = z.object({
  project: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
});
export type ProjectCombinedUsersQuery = z.infer<typeof projectCombinedUsersQuery>;
