/**
 * The account's own second factor after its organization's provider vouched for it: the
 * provider proves who the organization says the person is, not that the account's owner is at
 * the keyboard. The sign-in waits on a short ticket until the code is given.
 */
import { AppError } from "../../http/errors.ts";
import { assertNotLocked, recordFailures } from "../../http/throttle/throttle.ts";
import { generateToken, hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import { loginLimits } from "../auth/login.service.ts";
import { invalidCodeMessage, type TwoFactorService } from "../two-factor/two-factor.service.ts";
import type { TokenService } from "../users/token.service.ts";
import type { UserService } from "../users/user.service.ts";
import {
  countTicketAttempt,
  deleteSecondFactorTicket,
  insertSecondFactorTicket,
} from "./sso-identities.repo.ts";

const ticketLifetimeMs = 5 * 60 * 1000;
const attemptsPerTicket = 5;
const expiredMessage = "This sign-in has expired. Sign in with single sign-on again.";

export class SecondFactorTickets {
  constructor(
    private readonly deps: {
      db: Database;
      users: UserService;
      tokens: TokenService;
      twoFactor: Pick<TwoFactorService, "verifySecondFactor">;
    },
  ) {}

  async issue(userId: number, organizationId: number, nextPath: string): Promise<string> {
    const ticket = generateToken();
    await insertSecondFactorTicket(this.deps.db, {
      ticketHash: hashToken(ticket),
      userId,
      organizationId,
      nextPath,
      expiresAt: new Date(Date.now() + ticketLifetimeMs),
    });
    return ticket;
  }

  /**
   * The code for the ticket: a session when it is right. Wrong codes count against the ticket
   * and against the account as password sign-ins do (the same lock, shared by every process).
   */
  async finish(ticket: string, otp: string, now = new Date()) {
    const ticketHash = hashToken(ticket);
    const row = await countTicketAttempt(this.deps.db, ticketHash, now);
    if (!row || row.attempts > attemptsPerTicket) {
      if (row) await deleteSecondFactorTicket(this.deps.db, ticketHash);
      throw AppError.validation({ ticket: [expiredMessage] });
    }
    const user = await this.deps.users.findById(row.userId);
    if (!user) throw AppError.validation({ ticket: [expiredMessage] });
    const accountKey = `login:account:${user.email}`;
    await assertNotLocked(this.deps.db, [accountKey], now);
    if (!(await this.deps.twoFactor.verifySecondFactor(user.id, otp))) {
      await recordFailures(
        this.deps.db,
        [
          [
            accountKey,
            {
              failures: loginLimits.accountFailures,
              windowMs: loginLimits.windowMs,
              lockMs: loginLimits.lockMs,
            },
          ],
        ],
        now,
      );
      throw AppError.validation({ otp: [invalidCodeMessage] });
    }
    // Used once: of two requests with the right code, one gets the session.
    if (!(await deleteSecondFactorTicket(this.deps.db, ticketHash))) {
      throw AppError.validation({ ticket: [expiredMessage] });
    }
    const session = await this.deps.tokens.issueSession(user.id, now, this.deps.db, {
      ssoOrganizationId: row.organizationId,
    });
    return { ...session, nextPath: row.nextPath };
  }
}
