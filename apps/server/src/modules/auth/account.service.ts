/**
 * Owns the life of an account before and around sign-in: registration, activation, invitations
 * (also for the staff module) and re-sent links. E-mailed codes are
 * random, single use, expiring and stored only as SHA-256 hashes.
 */

import { AppError } from "../../http/errors.ts";
import { enforceRateLimit } from "../../http/throttle/throttle.ts";
import { generateToken, hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import { isUniqueViolation } from "../../platform/db/db-errors.ts";
import { displayName, normalizeEmail, type UserRow } from "../users/user.service.ts";
import { type AccountDeps, accountMailLimits, codeLifetimeMs, queueMail } from "./account-deps.ts";
import { activationMail, addedToOrganizationMail, invitationMail } from "./account-mail.ts";
import { checkPassword } from "./password-rules.ts";
import {
  consumeUserCode,
  findLiveUserCode,
  hasLiveUserCode,
  insertUserCode,
  type UserCodeKind,
  voidUserCodes,
} from "./user-code.repo.ts";

export interface InviteInput {
  email: string;
  firstName: string;
  lastName: string;
  invitedByUserId: number;
  organizationTitle?: string;
  /** The organization the person is invited to: its own mail server sends the invitation. */
  organizationId?: number;
}

const hourMs = 3600 * 1000;

export const duplicateEmailMessage = "A user with this e-mail already exists.";

/** An invited account has no password until its owner accepts the invitation. */
export function isPendingInvitation(user: Pick<UserRow, "isActive" | "passwordHash">): boolean {
  return !user.isActive && !user.passwordHash;
}

export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  private async issueCode(tx: Database, userId: number, kind: UserCodeKind, now: Date): Promise<string> {
    await voidUserCodes(tx, userId, [kind], now);
    const code = generateToken();
    await insertUserCode(tx, {
      userId,
      kind,
      codeHash: hashToken(code),
      expiresAt: new Date(now.getTime() + codeLifetimeMs[kind]),
    });
    return code;
  }

  private async inviterName(tx: Database, userId: number): Promise<string> {
    const inviter = await this.deps.users.findById(userId, tx);
    return inviter ? displayName(inviter) : "A Tarmac user";
  }

  async register(input: { email: string; password: string; firstName: string; lastName: string }) {
    const email = normalizeEmail(input.email);
    // Every problem at once, so the form does not reveal them one submit at a time.
    const fields: Record<string, string[]> = {};
    const problems = checkPassword(input.password, email);
    if (problems.length > 0) fields.password = problems;
    if (await this.deps.users.findByEmail(email)) fields.email = [duplicateEmailMessage];
    if (Object.keys(fields).length > 0) throw AppError.validation(fields);
    const passwordHash = await this.deps.users.hashPassword(input.password);
    const now = new Date();
    const user = await this.createUnlessTaken(() =>
      this.deps.db.transaction(async (tx) => {
        const created = await this.deps.users.create(
          { email, passwordHash, firstName: input.firstName, lastName: input.lastName, isActive: false },
          tx,
        );
        const code = await this.issueCode(tx, created.id, "activation", now);
        await queueMail(this.deps, tx, email, activationMail(this.deps.publicUrl, code));
        return created;
      }),
    );
    return this.deps.tokens.issueSession(user.id, now);
  }

  /** Two sign-ups racing for one address: the loser gets the same answer as a late duplicate. */
  private async createUnlessTaken<T>(create: () => Promise<T>): Promise<T> {
    try {
      return await create();
    } catch (error) {
      if (isUniqueViolation(error, "users_email_key"))
        throw AppError.validation({ email: [duplicateEmailMessage] });
      throw error;
    }
  }

  /**
   * Invites someone by e-mail. An unknown address becomes an inactive user with an invitation
   * code; a known one is told it was added. Pass `tx` to join the caller's transaction.
   */
  async inviteByEmail(input: InviteInput, options: { tx?: Database } = {}) {
    const run = async (tx: Database) => {
      const now = new Date();
      const email = normalizeEmail(input.email);
      const inviter = await this.inviterName(tx, input.invitedByUserId);
      const existing = await this.deps.users.findByEmail(email, tx);
      if (existing) {
        if (isPendingInvitation(existing)) {
          // Still never signed in: a fresh invitation is the only mail that helps them.
          const code = await this.issueCode(tx, existing.id, "invitation", now);
          const mail = invitationMail(this.deps.publicUrl, code, inviter, input.organizationTitle);
          await queueMail(this.deps, tx, email, mail, input.organizationId);
        } else if (input.organizationTitle) {
          const mail = addedToOrganizationMail(this.deps.publicUrl, inviter, input.organizationTitle);
          await queueMail(this.deps, tx, email, mail, input.organizationId);
        }
        return { userId: existing.id, created: false };
      }
      const user = await this.deps.users.create(
        { email, firstName: input.firstName, lastName: input.lastName, isActive: false },
        tx,
      );
      const code = await this.issueCode(tx, user.id, "invitation", now);
      await queueMail(
        this.deps,
        tx,
        email,
        invitationMail(this.deps.publicUrl, code, inviter, input.organizationTitle),
        input.organizationId,
      );
      return { userId: user.id, created: true };
    };
    return options.tx ? run(options.tx) : this.deps.db.transaction(run);
  }

  /**
   * Sends the link an inactive user still needs: a new invitation when they have no password,
   * else a new activation link. Older links of that kind stop working.
   */
  async resendInvitation(
    userId: number,
    options: { invitedByUserId?: number; organizationTitle?: string; organizationId?: number } = {},
  ): Promise<void> {
    const { perRecipientPerHour, resendsPerRequesterPerHour, windowMs } = accountMailLimits;
    await enforceRateLimit(this.deps.db, `resend:to:${userId}`, perRecipientPerHour, windowMs);
    if (options.invitedByUserId !== undefined) {
      const requester = `resend:by:${options.invitedByUserId}`;
      await enforceRateLimit(this.deps.db, requester, resendsPerRequesterPerHour, windowMs);
    }
    await this.deps.db.transaction(async (tx) => {
      const user = await this.deps.users.findById(userId, tx);
      if (!user) throw AppError.notFound();
      if (user.isActive) throw AppError.badRequest("This user has already activated the account.");
      await this.sendPendingLink(tx, user, options);
    });
  }

  private async sendPendingLink(
    tx: Database,
    user: UserRow,
    options: { invitedByUserId?: number; organizationTitle?: string; organizationId?: number },
  ): Promise<void> {
    const now = new Date();
    if (isPendingInvitation(user)) {
      const code = await this.issueCode(tx, user.id, "invitation", now);
      const inviter = options.invitedByUserId
        ? await this.inviterName(tx, options.invitedByUserId)
        : "A Tarmac user";
      const mail = invitationMail(this.deps.publicUrl, code, inviter, options.organizationTitle);
      await queueMail(this.deps, tx, user.email, mail, options.organizationId);
      return;
    }
    const code = await this.issueCode(tx, user.id, "activation", now);
    await queueMail(this.deps, tx, user.email, activationMail(this.deps.publicUrl, code));
  }

  /**
   * The public "resend my link" call: silent for unknown or active addresses, so it reveals
   * nothing; at most 3 an hour per address so nobody can flood a mailbox.
   */
  async reinvite(email: string): Promise<void> {
    await enforceRateLimit(this.deps.db, `reinvite:${normalizeEmail(email)}`, 3, hourMs);
    await this.deps.db.transaction(async (tx) => {
      const user = await this.deps.users.findByEmail(email, tx);
      if (!user || user.isActive) return;
      await this.sendPendingLink(tx, user, {});
    });
  }

  /** POST /api/user/invite/: a new person only (a known address gets a field error); 30 an hour per inviter. */
  async inviteNew(input: InviteInput): Promise<void> {
    if (await this.deps.users.findByEmail(input.email)) {
      throw AppError.validation({ email: [duplicateEmailMessage] });
    }
    await enforceRateLimit(this.deps.db, `invite:user:${input.invitedByUserId}`, 30, hourMs);
    await this.inviteByEmail(input);
  }

  /** A live activation or invitation code with its account; 404 otherwise. */
  private async findLinkCode(code: string, now: Date) {
    const found = await findLiveUserCode(this.deps.db, hashToken(code), ["activation", "invitation"], now);
    const user = found && (await this.deps.users.findById(found.userId));
    if (!found || !user) throw AppError.notFound("This link is invalid or has expired.");
    return { code: found, user };
  }

  async describeCode(code: string) {
    const found = await this.findLinkCode(code, new Date());
    return {
      email: found.user.email,
      kind: found.code.kind as "activation" | "invitation",
      requiresPassword: !found.user.passwordHash,
      firstName: found.user.firstName,
      lastName: found.user.lastName,
    };
  }

  /** Uses an activation or invitation code: activates the account and signs the user in. */
  async activate(code: string, input: { password?: string; firstName?: string; lastName?: string }) {
    const now = new Date();
    const found = await this.findLinkCode(code, now);
    const { user } = found;
    let passwordHash: string | undefined;
    if (!user.passwordHash) {
      if (!input.password) throw AppError.validation({ password: ["This field is required."] });
      const problems = checkPassword(input.password, user.email);
      if (problems.length > 0) throw AppError.validation({ password: problems });
      passwordHash = await this.deps.users.hashPassword(input.password);
    }
    await this.deps.db.transaction(async (tx) => {
      if (!(await consumeUserCode(tx, found.code.id, now))) {
        throw AppError.notFound("This link is invalid or has expired.");
      }
      await voidUserCodes(tx, user.id, ["activation", "invitation"], now);
      await this.deps.users.update(
        user.id,
        {
          isActive: true,
          ...(passwordHash ? { passwordHash } : {}),
          ...(input.firstName ? { firstName: input.firstName } : {}),
          ...(input.lastName ? { lastName: input.lastName } : {}),
        },
        tx,
      );
    });
    return this.deps.tokens.issueSession(user.id, now);
  }

  /** Whether the user still has a working activation link (for the profile and tests). */
  hasPendingActivation(userId: number): Promise<boolean> {
    return hasLiveUserCode(this.deps.db, userId, "activation", new Date());
  }
}
