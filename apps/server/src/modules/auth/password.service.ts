/**
 * Owns password changes: the e-mailed reset (request and confirm) and the signed-in change.
 * A reset signs out every session; a change keeps only the session that made it.
 */

import { AppError } from "../../http/errors.ts";
import { checkOwnCredential, enforceRateLimit } from "../../http/throttle/throttle.ts";
import { verifyPassword } from "../../platform/crypto/passwords.ts";
import { generateToken, hashToken } from "../../platform/crypto/tokens.ts";
import { normalizeEmail } from "../users/user.service.ts";
import { type AccountDeps, accountMailLimits, codeLifetimeMs, queueMail } from "./account-deps.ts";
import { passwordResetMail } from "./account-mail.ts";
import { checkPassword } from "./password-rules.ts";
import { consumeUserCode, findLiveUserCode, insertUserCode, voidUserCodes } from "./user-code.repo.ts";

export const resetRequestedMessage = "If the address is registered, a reset code is on its way.";
export const invalidResetCodeMessage = "This code is invalid or has expired.";

export class PasswordService {
  constructor(private readonly deps: AccountDeps) {}

  /**
   * Same answer whether or not the address is known, so it cannot be used to find accounts; the
   * limits count the address asked for and the asking client, never whether an account exists.
   */
  async requestReset(email: string, clientAddress: string): Promise<void> {
    const { perRecipientPerHour, resetsPerAddressPerHour, windowMs } = accountMailLimits;
    await enforceRateLimit(this.deps.db, `reset:to:${normalizeEmail(email)}`, perRecipientPerHour, windowMs);
    await enforceRateLimit(this.deps.db, `reset:from:${clientAddress}`, resetsPerAddressPerHour, windowMs);
    const now = new Date();
    await this.deps.db.transaction(async (tx) => {
      const user = await this.deps.users.findByEmail(email, tx);
      if (!user) return;
      await voidUserCodes(tx, user.id, ["password_reset"], now);
      const code = generateToken();
      await insertUserCode(tx, {
        userId: user.id,
        kind: "password_reset",
        codeHash: hashToken(code),
        expiresAt: new Date(now.getTime() + codeLifetimeMs.password_reset),
      });
      await queueMail(this.deps, tx, user.email, passwordResetMail(this.deps.publicUrl, code));
    });
  }

  /**
   * Sets the password from a reset code. The code proves the mailbox, so it also activates.
   * Sessions always end; API keys too when asked (someone who knew the old password may have made one).
   */
  async confirmReset(
    code: string,
    password: string,
    options: { revokeApiKeys?: boolean } = {},
  ): Promise<void> {
    const now = new Date();
    const found = await findLiveUserCode(this.deps.db, hashToken(code), ["password_reset"], now);
    const user = found && (await this.deps.users.findById(found.userId));
    if (!found || !user) throw AppError.validation({ code: [invalidResetCodeMessage] });
    const problems = checkPassword(password, user.email);
    if (problems.length > 0) throw AppError.validation({ password: problems });
    const passwordHash = await this.deps.users.hashPassword(password);
    await this.deps.db.transaction(async (tx) => {
      if (!(await consumeUserCode(tx, found.id, now))) {
        throw AppError.validation({ code: [invalidResetCodeMessage] });
      }
      await this.deps.users.update(user.id, { passwordHash, isActive: true }, tx);
      await voidUserCodes(tx, user.id, ["activation", "invitation"], now);
      await this.deps.hooks.mailboxProven(user.id, tx);
      await this.deps.tokens.revokeSessions(user.id, { db: tx });
      if (options.revokeApiKeys) await this.deps.tokens.revokeApiKeys(user.id, tx);
    });
  }

  async change(userId: number, currentTokenId: number, oldPassword: string, newPassword: string) {
    const user = await this.deps.users.findById(userId);
    if (!user) throw AppError.unauthorized();
    const oldPasswordOk = await checkOwnCredential(this.deps.db, userId, () =>
      verifyPassword(user.passwordHash, oldPassword),
    );
    if (!oldPasswordOk) {
      throw AppError.validation({ old_password: ["Your old password was entered incorrectly."] });
    }
    const problems = checkPassword(newPassword, user.email);
    if (problems.length > 0) throw AppError.validation({ new_password: problems });
    const passwordHash = await this.deps.users.hashPassword(newPassword);
    await this.deps.db.transaction(async (tx) => {
      await this.deps.users.update(userId, { passwordHash }, tx);
      await this.deps.tokens.revokeSessions(userId, { keepTokenId: currentTokenId, db: tx });
    });
  }
}
