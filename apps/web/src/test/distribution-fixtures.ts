// Answers shaped like the distribution and tester APIs, for tests.
import type { DistributionRecord } from "../api/distribution.ts";
import type { Tester, TesterRecipients } from "../api/testers.ts";

export function makeLink(overrides: Partial<DistributionRecord> = {}): DistributionRecord {
  return {
    id: 1,
    app: 1,
    version: null,
    key: "appkey1",
    name: null,
    url: "https://tarmac.test/getapp/appkey1",
    qr: "data:image/png;base64,AAAA",
    access: "public",
    has_password: false,
    expires_at: null,
    install_limit: 0,
    installs_count: 4,
    counts: { install: 4, download: 7 },
    expired: false,
    limit_reached: false,
    state: "active",
    created_at: "2026-03-01T00:00:00Z",
    updated_at: "2026-03-01T00:00:00Z",
    ...overrides,
  };
}

export function makeTester(overrides: Partial<Tester> = {}): Tester {
  return {
    id: 31,
    email: "tina@example.com",
    first_name: "Tina",
    last_name: "Test",
    app: 1,
    groups: [51],
    user: null,
    created_at: "2026-03-01T00:00:00Z",
    ...overrides,
  };
}

export const GROUP = { id: 51, app: 1, title: "QA team", testers_count: 1 };

export function makeRecipients(overrides: Partial<TesterRecipients> = {}): TesterRecipients {
  return {
    app: 1,
    version: 100,
    platforms: [
      {
        app: 1,
        app_type: 0,
        title: "Rocket",
        versions: [{ id: 100, version: "1.2.0", build_version_number: "42", date: "2026-03-04T05:06:07Z" }],
      },
      {
        app: 2,
        app_type: 1,
        title: "Rocket",
        versions: [{ id: 200, version: "1.2.0", build_version_number: "77", date: "2026-03-04T05:06:07Z" }],
      },
    ],
    groups: [
      {
        id: 51,
        app: 1,
        title: "QA team",
        testers: [
          { id: 31, email: "tina@example.com", first_name: "Tina", last_name: "Test", user: null },
          { id: 32, email: "tom@example.com", first_name: "", last_name: "", user: null },
        ],
      },
    ],
    testers: [{ id: 33, email: "solo@example.com", first_name: "", last_name: "", user: null }],
    users: [{ id: 11, email: "ann@example.com", first_name: "Ann", last_name: "Lee", role: 2 }],
    app_mails: [{ id: 61, app: 1, email: "list@example.com", created_at: "2026-03-01T00:00:00Z" }],
    batches: [
      {
        batch_id: "b1",
        created_at: "2026-03-05T10:00:00Z",
        sent_by: 11,
        total: 3,
        queued: 1,
        sent: 1,
        failed: 1,
      },
    ],
    ...overrides,
  };
}
