// Answers shaped like the distribution and tester APIs, and the app page opened on a tab.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { MyAppRole } from "../../api/applications.ts";
import type { DistributionRecord } from "../../api/distribution.ts";
import type { Tester, TesterRecipients } from "../../api/testers.ts";
import { makeOrg, makeProfile } from "../../test/fixtures.ts";
import { type ApiCall, type ApiReply, renderApp, stubApi } from "../../test/render.tsx";
import { makeApp, makeVersion, pageOf } from "../apps/test-fixtures.ts";

// Mantine's comboboxes scroll the active option into view; jsdom has no layout to scroll.
Element.prototype.scrollIntoView ??= () => {};

export const ADMIN: MyAppRole = {
  role: 2,
  project_role: null,
  can_upload: true,
  can_edit: true,
  can_delete: true,
  can_download: true,
};

export function makeLink(overrides: Partial<DistributionRecord> = {}): DistributionRecord {
  return {
    id: 1,
    app: 1,
    version: null,
    key: "appkey1",
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

type Replies = Record<string, ApiReply | ((call: ApiCall) => ApiReply)>;

export function serveDistribution(extra: Replies = {}, rights: MyAppRole = ADMIN): ApiCall[] {
  return stubApi({
    "GET /api/profiles/": {
      status: 200,
      body: [makeProfile({ org_data: [makeOrg({ role: rights.role })] })],
    },
    "GET /api/applications/1/?showenvall=1": {
      status: 200,
      body: makeApp({ environments: [{ id: 5, title: "Rocket", app_type: 0, environment: "qa" }] }),
    },
    "GET /api/applications/1/check_my_role/": { status: 200, body: rights },
    "GET /api/applications/1/builds/?page=1": { status: 200, body: pageOf([makeVersion()]) },
    "GET /api/distributions/?app=1": {
      status: 200,
      body: [
        makeLink({ id: 2, version: 100, key: "v100", url: "https://tarmac.test/getapp/v100" }),
        makeLink(),
      ],
    },
    "GET /api/group-testers/?app=1": { status: 200, body: [GROUP] },
    "GET /api/testers/?app=1&page=1&page_size=20": { status: 200, body: pageOf([makeTester()]) },
    "GET /api/applications/1/users_in_groups/": {
      status: 200,
      body: [
        {
          ...GROUP,
          testers: [{ id: 31, email: "tina@example.com", first_name: "Tina", last_name: "Test", user: null }],
        },
      ],
    },
    "GET /api/app-mails/?app=1": { status: 200, body: [] },
    "GET /api/app-teams/1/": { status: 200, body: makeRecipients({ version: null }) },
    "GET /api/app-teams/1/?ver=100": { status: 200, body: makeRecipients() },
    ...extra,
  });
}

/** Opens /dashboard/apps/1 and switches to a tab. */
export async function openTab(name: string) {
  const user = userEvent.setup();
  const view = renderApp("/dashboard/apps/1");
  await screen.findByRole("heading", { name: "Rocket" }, { timeout: 5000 });
  await user.click(await screen.findByRole("tab", { name }));
  return { user, ...view };
}

/** Opens a Mantine select or multi-select and clicks one of its own options. */
export async function pickOption(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, name: string) {
  await user.click(input);
  const listId = await waitFor(() => {
    const id = input.getAttribute("aria-controls");
    if (!id || !document.getElementById(id)) throw new Error("the option list is not open");
    return id;
  });
  const list = document.getElementById(listId) as HTMLElement;
  await user.click(within(list).getByRole("option", { name, hidden: true }));
}

/**
 * Opens an action menu and picks an item. The item is looked up including hidden elements: on a
 * loaded machine Mantine's opening transition can keep the dropdown styled as hidden for a while,
 * yet the item is already there and clickable.
 */
export async function chooseMenuItem(
  user: ReturnType<typeof userEvent.setup>,
  button: HTMLElement,
  name: string,
) {
  await user.click(button);
  await user.click(await screen.findByRole("menuitem", { name, hidden: true }));
}
