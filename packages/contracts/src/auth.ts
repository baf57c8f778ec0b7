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
export const detailResponse = z.object({ detail: z.string() });

export const activationCodeParams = z.object({ code: z.string().min(10).max(200) });
export const activationInfo = z.object({
  email: z.string(),
  kind: z.enum(["activation", "invitation"]),
  requires_password: z.boolean(),
});
export const activateInput = z
  .object({ password: password.optional(), first_name: name.optional(), last_name: name.optional() })
  .nullish();

export const loginQuery = z.object({ m: z.string().optional() });
export const loginInput = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
  otp: z.string().max(64).optional(),
});
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
});

export const passwordChangeInput = z.object({ old_password: password, new_password: password });

export const reinviteInput = z.object({ email });
export const inviteInput = z.object({ email, first_name: name.default(""), last_name: name.default("") });

export const twoFactorKey = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
  qr_code: z.string(),
});
export const twoFactorTokenInput = z.object({ token: z.string().trim().min(1).max(64) });
export const twoFactorEnabled = z.object({
  two_factor_enabled: z.literal(true),
  recovery_codes: z.array(z.string()),
});
export const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()) });
export const twoFactorDisableInput = z.object({
  token: z.string().trim().max(64).optional(),
  password: z.string().max(1024).optional(),
});
export const twoFactorDisabled = z.object({ two_factor_enabled: z.literal(false) });
