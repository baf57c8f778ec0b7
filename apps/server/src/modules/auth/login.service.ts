/**
 * Owns signing in and out: credential checks, the second factor, the mobile-only rule and the
 * failed-login throttle (per account and per client address, shared through the database).
 */

import { AppError } from "../../http/errors.ts";
import { clearThrottle } from "../../http/throttle/throttle.repo.ts";
import { assertNotLocked, recordFailures } from "../../http/throttle/throttle.ts";
import { verifyPassword } from "../../platform/crypto/passwords.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { TwoFactorService } from "../two-factor/two-factor.service.ts";
import { invalidCodeMessage } from "../two-factor/two-factor.service.ts";
import { normalizeEmail } from "../users/user.service.ts";
import type { AccountDeps } from "./account-deps.ts";

export const loginLimits = {
  accountFailures: 5,
  addressFailures: 20,
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
};

export const badCredentialsMessage = "Unable to log in with provided credentials.";

/** Roles that may only use the mobile app: 3 mobile user, 5 tester. */
const mobileRoles = new Set([3, 5]);

export type LoginResult =
  | { kind: "token"; token: string; expiresAt: Date }
  | { kind: "mobile_only" }
  | { kind: "two_factor_required" };

export interface LoginInput {
  email: string;
  password: string;
  otp?: string;
  mobileApp: boolean;
  clientAddress: string;
}

/** The organization (subdomain) whose single sign-on the person must use, or null. */
export type PasswordPolicy = (userId: number) => Promise<string | null>;

export const ssoRequiredMessage =
  'Your organization signs in with single sign-on. Use "Sign in with SSO" instead.';

export class LoginService {
  constructor(
    private readonly deps: AccountDeps & {
      twoFactor: TwoFactorService;
      membership: Pick<MembershipService, "listMemberships">;
    },
  ) {}

  private readonly passwordPolicies: PasswordPolicy[] = [];

  /** Lets a later module refuse password sign-ins (organizations that require single sign-on). */
  refusePasswordsWhen(policy: PasswordPolicy): void {
    this.passwordPolicies.push(policy);
  }

  private async recordFailure(accountKey: string, addressKey: string, now: Date): Promise<void> {
    const common = { windowMs: loginLimits.windowMs, lockMs: loginLimits.lockMs };
    await recordFailures(
      this.deps.db,
      [
        [accountKey, { ...common, failures: loginLimits.accountFailures }],
        [addressKey, { ...common, failures: loginLimits.addressFailures }],
      ],
      now,
    );
  }

  async login(input: LoginInput, now = new Date()): Promise<LoginResult> {
    const email = normalizeEmail(input.email);
    const accountKey = `login:account:${email}`;
    const addressKey = `login:address:${input.clientAddress}`;
    await assertNotLocked(this.deps.db, [accountKey, addressKey], now);

    const user = await this.deps.users.findByEmail(email);
    const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
    if (!user || !passwordOk) {
      await this.recordFailure(accountKey, addressKey, now);
      throw AppError.validation({ non_field_errors: [badCredentialsMessage] });
    }

    // Only after the password checked out: a refusal must not tell strangers anything.
    for (const policy of this.passwordPolicies) {
      const organization = await policy(user.id);
      if (organization !== null) {
        await clearThrottle(this.deps.db, accountKey);
        throw AppError.validation({
          non_field_errors: [ssoRequiredMessage],
          sso_organization: [organization],
        });
      }
    }

    if (!input.mobileApp) {
      const roles = (await this.deps.membership.listMemberships(user.id)).map((member) => member.role);
      if (roles.length > 0 && roles.every((role) => mobileRoles.has(role))) {
        await clearThrottle(this.deps.db, accountKey);
        return { kind: "mobile_only" };
      }
    }

    if (user.twoFactorEnabled) {
      const otp = input.otp?.trim() ?? "";
      if (!otp) return { kind: "two_factor_required" };
      if (!(await this.deps.twoFactor.verifySecondFactor(user.id, otp))) {
        await this.recordFailure(accountKey, addressKey, now);
        throw AppError.validation({ otp: [invalidCodeMessage] });
      }
    }

    await clearThrottle(this.deps.db, accountKey);
    const session = await this.deps.tokens.issueSession(user.id, now);
    return { kind: "token", token: session.token, expiresAt: session.expiresAt };
  }

  async logout(tokenId: number): Promise<void> {
    await this.deps.tokens.revoke(tokenId);
  }

  /** Ends every session of the person, this one included, and revokes the API keys. */
  async logoutEverywhere(userId: number): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.deps.tokens.revokeSessions(userId, { db: tx });
      await this.deps.tokens.revokeApiKeys(userId, tx);
    });
  }
}
