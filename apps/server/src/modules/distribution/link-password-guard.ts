/**
 * Guessing an install link's password is throttled twice: per address (a few tries each), and
 * per link, whatever the address, with locks that double each time (15 minutes up to a day), so
 * spreading guesses over many addresses gets nowhere. The first lock of a day tells the person
 * who made the link (or the organization's owner) that someone is guessing.
 */
import {
  assertNotLocked,
  type BackoffRule,
  claimOncePer,
  enforceRateLimit,
  recordBackoffFailure,
} from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { Mail } from "../../platform/mail/mail-queue.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import type { DistributionRow } from "./distribution.repo.ts";
import { installPageUrl } from "./install-links.ts";

const minute = 60 * 1000;
const day = 24 * 60 * minute;

/** Tries per address and link (right or wrong). */
export const perAddressTries = { limit: 10, windowMs: 15 * minute };

/** Wrong passwords per link, from anywhere, before the link locks. */
export const perLinkRule: BackoffRule = {
  failures: 20,
  windowMs: 15 * minute,
  baseLockMs: 15 * minute,
  maxLockMs: day,
  forgiveMs: day,
};

export interface LinkPasswordGuardDeps {
  db: Database;
  mail: Mail;
  membership: Pick<MembershipService, "findMemberByUser" | "findOwner">;
  appTitle: (link: DistributionRow) => Promise<string>;
  organizations: Pick<OrganizationService, "getTitle">;
  publicUrl: string;
}

export class LinkPasswordGuard {
  constructor(private readonly deps: LinkPasswordGuardDeps) {}

  /** Runs `check` unless the address or the link is throttled (429); counts a wrong answer. */
  async check(link: DistributionRow, clientAddress: string, check: () => Promise<boolean>): Promise<boolean> {
    const { db } = this.deps;
    await enforceRateLimit(
      db,
      `getapp-unlock:${link.id}:${clientAddress}`,
      perAddressTries.limit,
      perAddressTries.windowMs,
    );
    const linkKey = `getapp-unlock-link:${link.id}`;
    // A locked link refuses even the right password: otherwise a lock would only slow guesses.
    await assertNotLocked(db, [linkKey]);
    if (await check()) return true;
    if (await recordBackoffFailure(db, linkKey, perLinkRule)) await this.noticeAttack(link);
    return false;
  }

  private async noticeAttack(link: DistributionRow): Promise<void> {
    const { db, membership, mail, publicUrl } = this.deps;
    if (!(await claimOncePer(db, `getapp-unlock-notice:${link.id}`, day))) return;
    const creator = link.createdBy
      ? await membership.findMemberByUser(link.organizationId, link.createdBy)
      : null;
    const recipient = creator ?? (await membership.findOwner(link.organizationId));
    if (!recipient) return;
    const title = await this.deps.appTitle(link);
    await mail.queue({
      to: recipient.email,
      subject: `${title}: install link under attack`,
      organization: {
        id: link.organizationId,
        name: await this.deps.organizations.getTitle(link.organizationId),
      },
      title: "Install link under attack",
      blocks: [
        `Hello${recipient.firstName ? ` ${recipient.firstName}` : ""},`,
        `Someone has typed many wrong passwords on the install link of "${title}" (${installPageUrl(publicUrl, link.key)}).`,
        "The link refuses passwords for a while now, longer each time this happens again.",
        "If the link's password was shared more widely than you meant, change it or delete the link on the app's page.",
        { button: "Open the app's page", url: `${publicUrl}/dashboard/apps/${link.applicationId}` },
      ],
    });
  }
}
