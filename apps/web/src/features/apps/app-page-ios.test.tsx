import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { MyAppRole } from "../../api/applications.ts";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { ADMIN } from "../../test/app-page-api.ts";
import { makeApp, pageOf } from "../../test/application-fixtures.ts";
import { renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const DISTRIBUTOR = ADMIN;
const TESTER: MyAppRole = { ...DISTRIBUTOR, role: 5, can_upload: false, can_edit: false, can_delete: false };
const PLAIN_HTTP = {
  ios_installs: false,
  reason: "iPhones and iPads install only from https:// addresses; this server's PUBLIC_URL is http://.",
};

function serve(options: {
  appType: 0 | 1;
  rights: MyAppRole;
  instance: { ios_installs: boolean; reason: string | null };
}) {
  return stubApi({
    "GET /api/profiles/": {
      status: 200,
      body: [makeProfile({ org_data: [makeOrg({ role: options.rights.role })] })],
    },
    "GET /api/applications/1/?showenvall=1": { status: 200, body: makeApp({ app_type: options.appType }) },
    "GET /api/applications/1/check_my_role/": { status: 200, body: options.rights },
    "GET /api/applications/1/builds/?page=1": { status: 200, body: pageOf([]) },
    "GET /api/app-logs/1/?page=1": { status: 200, body: pageOf([]) },
    "GET /api/distributions/instance/": { status: 200, body: options.instance },
  });
}

async function openPage() {
  renderApp("/dashboard/apps/1");
  await screen.findByRole("heading", { name: "Rocket" }, { timeout: 15_000 });
}

describe("app page of an iOS app on a server without HTTPS", () => {
  useSignedInTestSession();

  it("warns the people who distribute it, with the reason", async () => {
    serve({ appType: 1, rights: DISTRIBUTOR, instance: PLAIN_HTTP });
    await openPage();
    expect(
      await screen.findByText("This instance cannot serve iOS installs", {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByText(PLAIN_HTTP.reason)).toBeTruthy();
  });

  it("says nothing on HTTPS, for other platforms, or to testers", async () => {
    const setups: Parameters<typeof serve>[0][] = [
      { appType: 1, rights: DISTRIBUTOR, instance: { ios_installs: true, reason: null } },
      { appType: 0, rights: DISTRIBUTOR, instance: PLAIN_HTTP },
      { appType: 1, rights: TESTER, instance: PLAIN_HTTP },
    ];
    for (const setup of setups) {
      const calls = serve(setup);
      const { unmount } = renderApp("/dashboard/apps/1");
      await screen.findByRole("heading", { name: "Rocket" }, { timeout: 15_000 });
      // Give the instance question time to be asked and answered where it is asked at all.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(screen.queryByText("This instance cannot serve iOS installs")).toBeNull();
      expect(calls.length).toBeGreaterThan(0);
      unmount();
    }
  });
});
