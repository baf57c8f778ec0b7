// Answers shaped like the accounts API, for tests.
import type { OrgData, Profile } from "../api/account.ts";

export function makeOrg(overrides: Partial<OrgData> = {}): OrgData {
  return {
    org_id: 7,
    title: "Acme",
    subdomain: "acme",
    logo: null,
    role: 1,
    space_used: 10,
    space_limit: 100,
    builds_count: 3,
    build_limit: 50,
    projects_count: 1,
    projects_limit: 5,
    users_count: 2,
    user_limit: 10,
    ...overrides,
  };
}

export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    user_id: 11,
    username: "ann@example.com",
    email: "ann@example.com",
    first_name: "Ann",
    last_name: "Lee",
    is_active: true,
    two_factor_enabled: false,
    welcome_closed: false,
    date_joined: "2026-01-02T03:04:05Z",
    org_data: [makeOrg()],
    is_instance_admin: false,
    ...overrides,
  };
}
