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
import { activationMail, invitationMail, organizationInvitationMail } from "./account-mail.ts";
import { checkPassword } from "./password-rules.ts";
import {
  consumeUserCode,
  findLiveUserCode,
  hasLiveUserCode,
  insertUserCode,
  type UserCodeKind,
  voidUserCodes,
} from "./user-code.repo.ts";

/** `POST /api/user/invite/`: someone new invited to Tarmac itself, not to an organization. */
export interface InviteInput {
  email: string;
  firstName: string;
  lastName: string;
  invitedByUserId: number;
}

const hourMs = 3600 * 1000;

export const duplicateEmailMessage = "A user with this e-mail already exists.";

/** An invited account has no password until its owner accepts the invitation. */
export function isPendingInvitation(user: Pick<UserRow, "isActive" | "passwordHash">): boolean {
  return !user.isActive && !user.passwordHash;
}

export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  /** A new code of the kind (an invitation's names its organization); older ones of it stop working. */
  private async issueCode(
    tx: Database,
    userId: number,
    kind: UserCodeKind,
    now: Date,
    organizationId?: number,
  ): Promise<string> {
    await voidUserCodes(tx, userId, [kind], now, organizationId);
    const code = generateToken();
    await insertUserCode(tx, {
      userId,
      kind,
      codeHash: hashToken(code),
      expiresAt: new Date(now.getTime() + codeLifetimeMs[kind]),
      organizationId: organizationId ?? null,
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
   * The account an invitation is for: the one registered under the address, or a new inactive
   * one without a password (its owner chooses one when accepting). Pass the caller's transaction.
   */
  async prepareInvitee(
    input: { email: string; firstName: string; lastName: string },
    tx: Database,
  ): Promise<UserRow> {
    const email = normalizeEmail(input.email);
    const existing = await this.deps.users.findByEmail(email, tx);
    if (existing && isPendingInvitation(existing) && (input.firstName || input.lastName)) {
      // Nobody has chosen names for an account still waiting for its owner: the ones this
      // inviter typed are the best guess, and the invitation form starts from them.
      const named = await this.deps.users.update(
        existing.id,
        { firstName: input.firstName, lastName: input.lastName },
        tx,
      );
      return named ?? existing;
    }
    if (existing) return existing;
    return this.deps.users.create(
      { email, firstName: input.firstName, lastName: input.lastName, isActive: false },
      tx,
    );
  }

  /**
   * How often invitations may reach an address: per inviter and per address across all
   * organizations, so add/remove cycles cannot flood a mailbox. 429 with Retry-After beyond.
   */
  async limitInvitations(invitedByUserId: number, email: string): Promise<void> {
    const { invitationsPerRecipientPerDay, invitationsPerSenderPerHour, windowMs } = accountMailLimits;
    const to = normalizeEmail(email);
    await enforceRateLimit(
      this.deps.db,
      `invite:by:${invitedByUserId}:to:${to}`,
      invitationsPerSenderPerHour,
      windowMs,
    );
    await enforceRateLimit(this.deps.db, `invite:to:${to}`, invitationsPerRecipientPerDay, 24 * windowMs);
  }

  /**
   * Mails an organization's invitation: someone who never signed in gets a link that sets their
   * password and accepts this organization's invitation; anyone else is asked to sign in and
   * answer it there. Queued in `tx`, so it goes out exactly when the invitation exists.
   */
  async mailInvitation(
    user: UserRow,
    input: { invitedByUserId: number; organizationTitle: string; organizationId: number },
    tx: Database,
  ): Promise<void> {
    const inviter = await this.inviterName(tx, input.invitedByUserId);
    const organization = { id: input.organizationId, name: input.organizationTitle };
    const mail = isPendingInvitation(user)
      ? invitationMail(
          this.deps.publicUrl,
          await this.issueCode(tx, user.id, "invitation", new Date(), input.organizationId),
          inviter,
          organization,
        )
      : organizationInvitationMail(this.deps.publicUrl, inviter, organization);
    await queueMail(this.deps, tx, user.email, mail);
  }

  /**
   * Sends the link an inactive user still needs: a new invitation when they have no password,
   * else a new activation link. Older links of that kind stop working.
   */
  async resendInvitation(
    userId: number,
    options: { invitedByUserId?: number; organization?: { id: number; name: string } } = {},
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
    options: { invitedByUserId?: number; organization?: { id: number; name: string } },
  ): Promise<void> {
    const now = new Date();
    if (isPendingInvitation(user)) {
      const code = await this.issueCode(tx, user.id, "invitation", now);
      const inviter = options.invitedByUserId
        ? await this.inviterName(tx, options.invitedByUserId)
        : "A Tarmac user";
      const mail = invitationMail(this.deps.publicUrl, code, inviter, options.organization);
      await queueMail(this.deps, tx, user.email, mail);
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
    await this.deps.db.transaction(async (tx) => {
      const user = await this.prepareInvitee(input, tx);
      // Someone registered between the check and now: nothing to send them.
      if (!isPendingInvitation(user)) return;
      const code = await this.issueCode(tx, user.id, "invitation", new Date());
      const inviter = await this.inviterName(tx, input.invitedByUserId);
      await queueMail(this.deps, tx, user.email, invitationMail(this.deps.publicUrl, code, inviter));
    });
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
      await this.deps.hooks.mailboxProven(user.id, tx);
      // The invitation link was the person's answer to that organization's invitation.
      if (found.code.kind === "invitation") {
        await this.deps.hooks.invitationUsed(user.id, found.code.organizationId, tx);
      }
    });
    return this.deps.tokens.issueSession(user.id, now);
  }

  /** Whether the user still has a working activation link (for the profile and tests). */
  hasPendingActivation(userId: number): Promise<boolean> {
    return hasLiveUserCode(this.deps.db, userId, "activation", new Date());
  }
}
