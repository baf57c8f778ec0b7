// Answers shaped like the plans list, an organization's usage and the instance administration API, for tests.
import type { AdminOrganization, OrganizationActivityEntry } from "../api/admin.ts";
import type { OrganizationUsage, Tariff } from "../api/plans.ts";
import { makeOrg } from "./account-fixtures.ts";

/** Usage on an instance without billing, whose administrator is root@tarmac.test. */
export function makeUsage(overrides: Partial<OrganizationUsage> = {}): OrganizationUsage {
  // The same counters as the profile's organization, so the two agree unless a test says otherwise.
  const { title: _title, subdomain: _subdomain, logo: _logo, role: _role, ...counters } = makeOrg();
  return {
    ...counters,
    pending_uploads: 0,
    pending_space: 0,
    critical: false,
    limits_managed_by: "administrator",
    administrator_email: "root@tarmac.test",
    ...overrides,
  };
}

export function makeAdminOrganization(overrides: Partial<AdminOrganization> = {}): AdminOrganization {
  return {
    id: 7,
    title: "Acme",
    subdomain: "acme",
    created_at: "2026-03-04T10:00:00Z",
    owner: { id: 11, email: "olga@acme.test", name: "Olga Owner" },
    plan: { id: 4, code: "unlimited", title: "Unlimited" },
    limits: { space_limit: 0, build_limit: 0, projects_limit: 0, user_limit: 0 },
    overrides: {},
    usage: { space_used: 12.5, builds_count: 5, projects_count: 2, users_count: 1 },
    ...overrides,
  };
}

export function makeTariff(overrides: Partial<Tariff> = {}): Tariff {
  return {
    id: 1,
    code: "free",
    title: "Free",
    price: 0,
    currency: "usd",
    space_limit: 2048,
    build_limit: 100,
    projects_limit: 3,
    user_limit: 5,
    ...overrides,
  };
}

export const TARIFFS: Tariff[] = [
  makeTariff(),
  makeTariff({ id: 2, code: "team", title: "Team", price: 29, space_limit: 51200, build_limit: 2000 }),
  makeTariff({
    id: 4,
    code: "unlimited",
    title: "Unlimited",
    space_limit: 0,
    build_limit: 0,
    projects_limit: 0,
    user_limit: 0,
  }),
];

export function makeActivity(overrides: Partial<OrganizationActivityEntry> = {}): OrganizationActivityEntry {
  return {
    id: 1,
    action: "plan.changed",
    details: { from: "unlimited", to: "free", source: "admin" },
    actor: { id: 1, email: "root@tarmac.test" },
    created_at: "2026-03-05T09:30:00Z",
    ...overrides,
  };
}
