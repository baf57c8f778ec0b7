/**
 * Decides what an organization's identity provider may do with the person it vouched for. Its
 * word opens only accounts the organization owns: those its own sign-in created, and existing
 * accounts in a domain it has proven whose owners linked them once. It never activates an
 * account, never stands in for the account's own second factor, and never makes an
 * administrator (single sign-on sessions carry their organization; see http/auth.ts).
 */
import { AppError } from "../../http/errors.ts";
import { enforceRateLimit, ThrottleError } from "../../http/throttle/throttle.ts";
import { generateToken, hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Mail } from "../../platform/mail/mail-queue.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { OrganizationUsageService } from "../organization/organization-usage.service.ts";
import type { TokenService } from "../users/token.service.ts";
import type { UserRow, UserService } from "../users/user.service.ts";
import type { SsoConnectionRow } from "./sso.repo.ts";
import { type DomainClaimsService, domainOfEmail } from "./sso-domains.service.ts";
import { findIdentity, insertIdentity, insertLinkRequest } from "./sso-identities.repo.ts";
import { SsoLoginError } from "./sso-login-error.ts";
import { linkRequestMail } from "./sso-mail.ts";
import type { SecondFactorTickets } from "./sso-second-factor.service.ts";

/** What a finished sign-in at the provider leads to. */
export type SsoOutcome =
  | { kind: "session"; token: string; expiresAt: Date; nextPath: string }
  | { kind: "second_factor"; ticket: string }
  | { kind: "linked"; nextPath: string };

export interface VouchedPerson {
  email: string;
  firstName: string;
  lastName: string;
}

/** A mailed link to link an account is valid this long, and this many go to one person an hour. */
export const linkRequestLifetimeMs = 60 * 60 * 1000;
const linkRequestsPerHour = 3;

export interface AdmissionDeps {
  db: Database;
  users: UserService;
  tokens: TokenService;
  membership: MembershipService;
  organizations: OrganizationService;
  usage: OrganizationUsageService;
  domains: DomainClaimsService;
  tickets: SecondFactorTickets;
  mail: Mail;
  publicUrl: string;
}

export class SsoAdmission {
  constructor(private readonly deps: AdmissionDeps) {}

  /**
   * The provider vouched for `person` in a sign-in that started for `pending`: a session, a
   * second factor still to give, or (when a signed-in person was linking) the link.
   */
  async admit(
    connection: SsoConnectionRow,
    person: VouchedPerson,
    pending: { nextPath: string; linkUserId: number | null },
  ): Promise<SsoOutcome> {
    if (!person.email) throw new SsoLoginError("no_email");
    const domain = domainOfEmail(person.email);
    if (connection.allowedDomains.length > 0 && !connection.allowedDomains.includes(domain)) {
      throw new SsoLoginError("domain");
    }
    const organizationId = connection.organizationId;
    if (pending.linkUserId !== null) {
      await this.link(organizationId, pending.linkUserId, person.email, domain);
      return { kind: "linked", nextPath: pending.nextPath };
    }
    const user = await this.deps.users.findByEmail(person.email);
    const userId = user
      ? await this.admitExisting(connection, user, domain)
      : await this.create(connection, person);
    if ((await this.deps.users.findById(userId))?.twoFactorEnabled) {
      return {
        kind: "second_factor",
        ticket: await this.deps.tickets.issue(userId, organizationId, pending.nextPath),
      };
    }
    const session = await this.deps.tokens.issueSession(userId, new Date(), this.deps.db, {
      ssoOrganizationId: organizationId,
    });
    return { kind: "session", ...session, nextPath: pending.nextPath };
  }

  /** An account the organization owns (see the header); otherwise a mailed link, or a refusal. */
  private async admitExisting(connection: SsoConnectionRow, user: UserRow, domain: string): Promise<number> {
    const organizationId = connection.organizationId;
    const identity = await findIdentity(this.deps.db, organizationId, user.id);
    const proven = await this.deps.domains.isProvenBy(organizationId, domain);
    const owned = identity?.origin === "created" || (identity?.origin === "linked" && proven);
    if (!owned) {
      if (!proven) throw new SsoLoginError("not_owned");
      await this.offerLink(organizationId, user);
      throw new SsoLoginError("link_sent");
    }
    if (!user.isActive) throw new SsoLoginError("inactive");
    await this.deps.db.transaction(async (tx) => {
      if (await this.deps.membership.findMemberByUser(organizationId, user.id, tx)) return;
      await this.takeSeat(organizationId, tx);
      await this.deps.membership.addMember(
        { organizationId, userId: user.id, role: connection.defaultRole },
        tx,
      );
    });
    return user.id;
  }

  /** The first sign-in of an address Tarmac does not know: the organization's own account. */
  private create(connection: SsoConnectionRow, person: VouchedPerson): Promise<number> {
    const organizationId = connection.organizationId;
    return this.deps.db.transaction(async (tx) => {
      await this.takeSeat(organizationId, tx);
      const user = await this.deps.users.create(
        {
          email: person.email,
          isActive: true,
          passwordHash: null,
          ...(person.firstName ? { firstName: person.firstName } : {}),
          ...(person.lastName ? { lastName: person.lastName } : {}),
        },
        tx,
      );
      await insertIdentity(tx, { organizationId, userId: user.id, origin: "created" });
      await this.deps.membership.addMember(
        { organizationId, userId: user.id, role: connection.defaultRole },
        tx,
      );
      return user.id;
    });
  }

  /** A new member needs a seat of the plan, counted under the organization's lock. */
  private async takeSeat(organizationId: number, tx: Database): Promise<void> {
    await this.deps.membership.lockOrganization(organizationId, tx);
    try {
      await this.deps.usage.assertSeatFree(organizationId, tx);
    } catch (error) {
      if (error instanceof AppError && error.code === "user_limit_reached")
        throw new SsoLoginError("user_limit");
      throw error;
    }
  }

  /** A signed-in person (password session) linking their account: the provider named them. */
  private async link(organizationId: number, userId: number, email: string, domain: string): Promise<void> {
    const user = await this.deps.users.findById(userId);
    if (!user || user.email.toLowerCase() !== email.toLowerCase()) throw new SsoLoginError("link_mismatch");
    if (!(await this.deps.domains.isProvenBy(organizationId, domain))) throw new SsoLoginError("not_owned");
    await insertIdentity(this.deps.db, { organizationId, userId, origin: "linked" });
  }

  /**
   * Mails the person a link that links their account to the organization's provider: the
   * provider named them, the mailbox confirms it is them. A few an hour at most; beyond that the
   * links already sent are the answer.
   */
  private async offerLink(organizationId: number, user: UserRow): Promise<void> {
    try {
      await enforceRateLimit(
        this.deps.db,
        `sso-link:to:${user.id}`,
        linkRequestsPerHour,
        linkRequestLifetimeMs,
      );
    } catch (error) {
      if (error instanceof ThrottleError) return;
      throw error;
    }
    const code = generateToken();
    const title = await this.deps.organizations.getTitle(organizationId);
    await this.deps.db.transaction(async (tx) => {
      await insertLinkRequest(tx, {
        codeHash: hashToken(code),
        organizationId,
        userId: user.id,
        expiresAt: new Date(Date.now() + linkRequestLifetimeMs),
      });
      await this.deps.mail.queue(
        { to: user.email, ...linkRequestMail(this.deps.publicUrl, code, title) },
        { tx, urgent: true },
      );
    });
  }
}
