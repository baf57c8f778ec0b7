import { z } from "zod";
import { organizationSelector, pageOf } from "./common.ts";

const idList = z.array(z.number().int().positive()).max(1000);
const nameField = z.string().trim().max(150, "Ensure this field has no more than 150 characters.");

/** Roles a member can be given; 1 (owner) moves only by owner transfer. */
export const assignableRole = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)], {
  error: "Choose one of the roles 2, 3, 4 or 5.",
});
export type AssignableRole = z.infer<typeof assignableRole>;

export const membership = z
  .object({
    id: z.number().int(),
    userid: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    role: z.number().int(),
    organization: z.number().int(),
    teams: z.array(z.number().int()),
    projects: z.array(z.number().int()),
    is_active: z.boolean(),
    two_factor_enabled: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "Membership" });
export type Membership = z.infer<typeof membership>;

export const membershipWithApiKey = membership.extend({ api_key: z.string() });
export type MembershipWithApiKey = z.infer<typeof membershipWithApiKey>;
export const membershipPage = pageOf(membership);

export const membershipListQuery = organizationSelector.extend({
  s: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

export const membershipDetailQuery = z.object({
  resend: z.enum(["1", "true"]).optional(),
  newapikey: z.enum(["1", "true"]).optional(),
});

/**
 * `userid` is the e-mail address of the person invited (an account of their own or a new one).
 * Only addresses: ids would let an organization read other people's accounts.
 */
export const createMembershipInput = z.object({
  userid: z.email({ error: "Enter a valid e-mail address." }).max(254),
  organization: z.number().int().positive(),
  role: assignableRole,
  teams: idList.default([]),
  projects: idList.default([]),
  first_name: nameField.default(""),
  last_name: nameField.default(""),
});
export type CreateMembershipInput = z.infer<typeof createMembershipInput>;
/** What a client sends: the lists and names may be left out. */
export type CreateMembershipRequest = z.input<typeof createMembershipInput>;

export const updateMembershipInput = z.object({
  role: assignableRole,
  teams: idList.default([]),
  projects: idList.default([]),
  first_name: nameField.optional(),
  last_name: nameField.optional(),
});
export const patchMembershipInput = z.object({
  role: assignableRole.optional(),
  teams: idList.optional(),
  projects: idList.optional(),
  first_name: nameField.optional(),
  last_name: nameField.optional(),
});
export type PatchMembershipInput = z.infer<typeof patchMembershipInput>;

export const orgUser = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.number().int(),
});
export type OrgUser = z.infer<typeof orgUser>;
export const orgUserPage = pageOf(orgUser);

export const orgUsersQuery = organizationSelector.extend({
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

export const teamsUsersSearchQuery = organizationSelector.extend({
  s: z.string().trim().max(200).default(""),
});

export const teamsUsersSearchResult = z.object({
  teams: z.array(z.object({ id: z.number().int(), title: z.string() })),
  users: z.array(
    z.object({ id: z.number().int(), email: z.string(), first_name: z.string(), last_name: z.string() }),
  ),
});
export type TeamsUsersSearchResult = z.infer<typeof teamsUsersSearchResult>;

/**
 * `POST /api/usersinorgs/` answers with the invitation; the same whether or not the address has
 * an account, and showing nothing of the account (names are those the inviter typed).
 */
export const invitation = z
  .object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    role: z.number().int(),
    organization: z.number().int(),
    teams: z.array(z.number().int()),
    projects: z.array(z.number().int()),
    status: z.literal("invited"),
    created_at: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: "Invitation" });
export type Invitation = z.infer<typeof invitation>;
export const invitationPage = pageOf(invitation);

export const invitationListQuery = organizationSelector.extend({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

/** `GET /api/invitations/`: the signed-in person's invitations waiting for an answer. */
export const myInvitation = z
  .object({
    id: z.number().int(),
    organization: z.object({ id: z.number().int(), title: z.string(), subdomain: z.string() }),
    role: z.number().int(),
    invited_by: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: "MyInvitation" });
export type MyInvitation = z.infer<typeof myInvitation>;
