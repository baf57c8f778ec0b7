// The app page (/dashboard/apps/1) with every call of its tabs answered, opened on a tab.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { MyAppRole } from "../api/applications.ts";
import { makeOrg, makeProfile } from "./account-fixtures.ts";
import { makeApp, makeVersion, pageOf } from "./application-fixtures.ts";
import { GROUP, makeLink, makeRecipients, makeTester } from "./distribution-fixtures.ts";
import { type ApiCall, type ApiReply, renderApp, stubApi } from "./render.tsx";

export const ADMIN: MyAppRole = {
  role: 2,
  project_role: null,
  can_upload: true,
  can_edit: true,
  can_delete: true,
  can_download: true,
};

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
    "GET /api/distributions/?app=1&page_size=100": {
      status: 200,
      body: pageOf([
        makeLink({ id: 2, version: 100, key: "v100", url: "https://tarmac.test/getapp/v100" }),
        makeLink(),
      ]),
    },
    "GET /api/group-testers/?app=1&page_size=100": { status: 200, body: pageOf([GROUP]) },
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
    "GET /api/app-mails/?app=1&page_size=100": { status: 200, body: pageOf([]) },
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
