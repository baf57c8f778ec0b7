/**
 * Owns the e-mail domains organizations claim (the `sso_domains` table). A claim is proven by a
 * TXT record Tarmac reads itself, and stays proven only while daily re-checks keep finding it:
 * a domain that changed hands stops speaking for its old organization.
 */
import { randomBytes } from "node:crypto";
import { domainToASCII } from "node:url";
import type { SsoDomain } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import { isUniqueViolation } from "../../platform/db/db-errors.ts";
import type { TxtLookup } from "../../platform/net/dns-txt.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { publicMailDomains } from "./public-mail-domains.ts";
import { can, type SsoAction } from "./sso.policy.ts";
import {
  type DomainClaimRow,
  deleteDomainClaim,
  findDomainClaim,
  findProvenOwner,
  insertDomainClaim,
  listDomainClaims,
  listProvenClaims,
  saveDomainCheck,
} from "./sso-domains.repo.ts";

/** Re-checks in a row that must miss the record before the proof lapses (a DNS hiccup is not enough). */
export const lapseAfterFailedChecks = 3;
const maxClaimsPerOrganization = 50;
const recordPrefix = "_tarmac-challenge";
const valuePrefix = "tarmac-domain-verification=";

/** The domain of an e-mail address, lower-cased. */
export function domainOfEmail(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/** The domain in its ASCII form, or null when it is not a registrable host name. */
export function normalizeDomain(input: string): string | null {
  const ascii = domainToASCII(input.trim().replace(/\.$/, "").toLowerCase());
  if (!ascii || ascii.length > 253 || !ascii.includes(".")) return null;
  const labels = ascii.split(".");
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (!labels.every((part) => label.test(part)) || /^\d+$/.test(labels.at(-1) ?? "")) return null;
  return ascii;
}

export class DomainClaimsService {
  constructor(private readonly deps: { db: Database; membership: MembershipService; lookupTxt: TxtLookup }) {}

  private async authorize(actorUserId: number, organizationId: number, action: SsoAction) {
    const member = await this.deps.membership.getMembership(actorUserId, organizationId);
    if (!can(member, action)) throw AppError.forbidden();
  }

  async list(actorUserId: number, organizationId: number): Promise<SsoDomain[]> {
    await this.authorize(actorUserId, organizationId, "sso:read");
    return (await listDomainClaims(this.deps.db, organizationId)).map(present);
  }

  async add(actorUserId: number, organizationId: number, input: string): Promise<SsoDomain> {
    await this.authorize(actorUserId, organizationId, "sso:update");
    const domain = normalizeDomain(input);
    if (!domain) throw AppError.validation({ domain: ["Enter a domain such as example.com."] });
    if (publicMailDomains.has(domain)) {
      throw AppError.validation({
        domain: [
          `${domain} is a public mail service: anyone can have an address there, so no organization can claim it.`,
        ],
      });
    }
    const claims = await listDomainClaims(this.deps.db, organizationId);
    if (claims.length >= maxClaimsPerOrganization) {
      throw AppError.validation({
        domain: [`An organization can claim ${maxClaimsPerOrganization} domains at most.`],
      });
    }
    try {
      const row = await insertDomainClaim(this.deps.db, {
        organizationId,
        domain,
        token: randomBytes(18).toString("base64url"),
      });
      return present(row);
    } catch (error) {
      if (isUniqueViolation(error, "sso_domains_org_domain_key")) {
        throw AppError.validation({ domain: ["This organization already claims this domain."] });
      }
      throw error;
    }
  }

  /** Looks for the TXT record now; proves the claim when it is there. */
  async verify(actorUserId: number, organizationId: number, id: number): Promise<SsoDomain> {
    await this.authorize(actorUserId, organizationId, "sso:update");
    const claim = await findDomainClaim(this.deps.db, organizationId, id);
    if (!claim) throw AppError.notFound();
    const refuse = (message: string) => AppError.validation({ domain: [message] });
    let records: string[];
    try {
      records = await this.deps.lookupTxt(txtName(claim.domain));
    } catch (error) {
      throw refuse(
        `DNS did not answer for ${txtName(claim.domain)} (${(error as NodeJS.ErrnoException).code ?? "error"}). Try again in a moment.`,
      );
    }
    const now = new Date();
    if (!records.includes(txtValue(claim))) {
      await saveDomainCheck(this.deps.db, claim.id, {
        verifiedAt: claim.verifiedAt,
        checkedAt: now,
        failedChecks: claim.failedChecks,
      });
      throw refuse(
        `No TXT record "${txtValue(claim)}" at ${txtName(claim.domain)} yet. DNS changes can take a while to spread; try again later.`,
      );
    }
    try {
      const saved = await saveDomainCheck(this.deps.db, claim.id, {
        verifiedAt: claim.verifiedAt ?? now,
        checkedAt: now,
        failedChecks: 0,
      });
      return present(saved ?? claim);
    } catch (error) {
      if (isUniqueViolation(error, "sso_domains_verified_key")) {
        throw refuse(
          "Another organization has proven this domain. Its proof lapses when its own TXT record is gone (checked daily); then verify again.",
        );
      }
      throw error;
    }
  }

  async remove(actorUserId: number, organizationId: number, id: number): Promise<void> {
    await this.authorize(actorUserId, organizationId, "sso:update");
    if (!(await deleteDomainClaim(this.deps.db, organizationId, id))) throw AppError.notFound();
  }

  /** The organization holding a proven claim on the domain, or null. */
  provenOwnerOf(domain: string, db = this.deps.db): Promise<number | null> {
    return findProvenOwner(db, domain.toLowerCase());
  }

  async isProvenBy(organizationId: number, domain: string, db = this.deps.db): Promise<boolean> {
    return (await this.provenOwnerOf(domain, db)) === organizationId;
  }

  /**
   * The daily re-check: a record found resets the count; a record missing from an answer counts
   * one more failure, and the proof lapses at `lapseAfterFailedChecks`. A lookup DNS did not answer
   * counts nothing: an outage of the resolver must not undo every proof.
   */
  async recheckAll(now = new Date()): Promise<{ checked: number; lapsed: number }> {
    let lapsed = 0;
    const claims = await listProvenClaims(this.deps.db);
    for (const claim of claims) {
      let records: string[];
      try {
        records = await this.deps.lookupTxt(txtName(claim.domain));
      } catch {
        continue;
      }
      const found = records.includes(txtValue(claim));
      const failedChecks = found ? 0 : claim.failedChecks + 1;
      const lapses = failedChecks >= lapseAfterFailedChecks;
      if (lapses) lapsed += 1;
      await saveDomainCheck(this.deps.db, claim.id, {
        verifiedAt: lapses ? null : claim.verifiedAt,
        checkedAt: now,
        failedChecks: lapses ? 0 : failedChecks,
      });
    }
    return { checked: claims.length, lapsed };
  }
}

function txtName(domain: string): string {
  return `${recordPrefix}.${domain}`;
}

function txtValue(claim: Pick<DomainClaimRow, "token">): string {
  return `${valuePrefix}${claim.token}`;
}

function present(row: DomainClaimRow): SsoDomain {
  return {
    id: row.id,
    domain: row.domain,
    txt_name: txtName(row.domain),
    txt_value: txtValue(row),
    verified: row.verifiedAt !== null,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    checked_at: row.checkedAt?.toISOString() ?? null,
    failed_checks: row.failedChecks,
  };
}
