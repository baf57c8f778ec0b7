import { z } from "zod";

const email = z.email().max(254);
const name = z.string().trim().max(150);
const password = z.string().min(1).max(1024);

export const registerInput = z.object({
  email,
  password,
  first_name: name.default(""),
  last_name: name.default(""),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const tokenResponse = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponse>;
export const detailResponse = z.object({ detail: z.string() });
export type DetailResponse = z.infer<typeof detailResponse>;

export const activationCodeParams = z.object({ code: z.string().min(10).max(200) });
export const activationInfo = z.object({
  email: z.string(),
  kind: z.enum(["activation", "invitation"]),
  requires_password: z.boolean(),
  /** The names on the account (for an invitation, as the inviting admin typed them). */
  first_name: z.string(),
  last_name: z.string(),
});
export type ActivationInfo = z.infer<typeof activationInfo>;
export const activateInput = z
  .object({ password: password.optional(), first_name: name.optional(), last_name: name.optional() })
  .nullish();
export type ActivateInput = z.infer<typeof activateInput>;

export const loginQuery = z.object({ m: z.string().optional() });
/**
 * `{email, password}`, or Updraft's `{username, password}`; the second factor as `otp` or as
 * Updraft's `token`. Either name of a pair is accepted, so scripts written for either work.
 */
export const loginInput = z
  .object({
    email: z.string().trim().min(1).max(254).optional(),
    username: z.string().trim().min(1).max(254).optional(),
    password: z.string().min(1).max(1024),
    otp: z.string().max(64).optional(),
    token: z.string().max(64).optional(),
  })
  .superRefine((input, context) => {
    if (input.email === undefined && input.username === undefined) {
      context.addIssue({ code: "custom", path: ["email"], message: "This field is required." });
    }
  });
export type LoginInput = z.infer<typeof loginInput>;
export const loginResponse = z.union([
  z.object({ token: z.string() }),
  z.object({ mobile_only: z.literal(true) }),
  z.object({ two_factor_required: z.literal(true) }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** One endpoint, two steps: `{email}` asks for a code, `{code, password}` sets the password. */
export const passwordUpdateInput = z.object({
  email: email.optional(),
  code: z.string().min(1).max(200).optional(),
  password: password.optional(),
  /** With a reset code: also revoke the person's API keys (a CI script using one stops working). */
  revoke_api_keys: z.boolean().optional(),
});
export type PasswordUpdateInput = z.infer<typeof passwordUpdateInput>;

export const passwordChangeInput = z.object({ old_password: password, new_password: password });
export type PasswordChangeInput = z.infer<typeof passwordChangeInput>;

export const reinviteInput = z.object({ email });
export type ReinviteInput = z.infer<typeof reinviteInput>;
export const inviteInput = z.object({ email, first_name: name.default(""), last_name: name.default("") });

export const twoFactorKey = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
  qr_code: z.string(),
});
export type TwoFactorKey = z.infer<typeof twoFactorKey>;
export const twoFactorTokenInput = z.object({ token: z.string().trim().min(1).max(64) });
export type TwoFactorTokenInput = z.infer<typeof twoFactorTokenInput>;
export const twoFactorEnabled = z.object({
  two_factor_enabled: z.literal(true),
  recovery_codes: z.array(z.string()),
});
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabled>;
export const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;
export const twoFactorDisableInput = z.object({
  token: z.string().trim().max(64).optional(),
  password: z.string().max(1024).optional(),
});
export type TwoFactorDisableInput = z.infer<typeof twoFactorDisableInput>;
export const twoFactorDisabled = z.object({ two_factor_enabled: z.literal(false) });
export type TwoFactorDisabled = z.infer<typeof twoFactorDisabled>;

/**
 * GET /api/check_sso_by_name/{name}/ (spec §7): where an organization's single sign-on starts.
 * This server does not serve it yet; the client treats a 404 as "no such organization".
 */
export const ssoLookupResult = z.object({ login_url: z.string().nullish() });
export type SsoLookupResult = z.infer<typeof ssoLookupResult>;
