import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../../test/account-fixtures.ts";
import { ADMIN } from "../../../test/app-page-api.ts";
import { makeApp, makeVersion, pageOf } from "../../../test/application-fixtures.ts";
import { chooseMenuItem } from "../../../test/mantine-actions.ts";
import { renderApp, stubApi, useSignedInTestSession } from "../../../test/render.tsx";

const ipa = makeVersion({
  id: 100,
  app_type: 1,
  file_name: "Rocket.ipa",
  content_type: "application/octet-stream",
});
const processing = makeVersion({
  id: 101,
  app_type: 1,
  version: "1.1.0",
  build_version_number: "41",
  file_name: "Old.ipa",
  state: "processing",
});

function serve(rights = ADMIN) {
  return stubApi({
    "GET /api/profiles/": {
      status: 200,
      body: [makeProfile({ org_data: [makeOrg({ role: rights.role })] })],
    },
    "GET /api/applications/1/?showenvall=1": { status: 200, body: makeApp({ app_type: 1 }) },
    "GET /api/applications/1/check_my_role/": { status: 200, body: rights },
    "GET /api/applications/1/builds/?page=1": { status: 200, body: pageOf([ipa, processing]) },
    "GET /api/app-logs/1/?page=1": { status: 200, body: pageOf([]) },
    "GET /api/distributions/instance/": { status: 200, body: { ios_installs: true, reason: null } },
  });
}

describe("the Sign action of an iOS version", () => {
  useSignedInTestSession();

  it("opens the iOS re-sign form for a finished IPA, and is not offered for a build still processing", async () => {
    serve();
    const user = userEvent.setup();
    renderApp("/dashboard/apps/1");
    await screen.findByRole("heading", { name: "Rocket" }, { timeout: 15_000 });
    await user.click(await screen.findByRole("button", { name: "Actions for 1.1.0 (41)" }));
    expect(await screen.findByRole("menuitem", { name: "Replace file…" })).toBeTruthy();
    expect(screen.queryByRole("menuitem", { name: "Sign…" })).toBeNull();
    await user.keyboard("{Escape}");
    await chooseMenuItem(user, screen.getByRole("button", { name: "Actions for 1.2.0 (42)" }), "Sign…");
    const dialog = await screen.findByRole(
      "dialog",
      { name: "Re-sign 1.2.0 (42) for iOS" },
      { timeout: 10_000 },
    );
    expect(within(dialog).getByRole("button", { name: "Re-sign" })).toBeTruthy();
    expect(within(dialog).getByText("Password of the .p12")).toBeTruthy();
  });

  it("is offered to those who may upload builds, even without editing rights", async () => {
    serve({ ...ADMIN, role: 4, can_edit: false, can_delete: false });
    const user = userEvent.setup();
    renderApp("/dashboard/apps/1");
    await screen.findByRole("heading", { name: "Rocket" }, { timeout: 15_000 });
    await chooseMenuItem(
      user,
      await screen.findByRole("button", { name: "Actions for 1.2.0 (42)" }),
      "Sign…",
    );
    expect(
      await screen.findByRole("dialog", { name: "Re-sign 1.2.0 (42) for iOS" }, { timeout: 10_000 }),
    ).toBeTruthy();
  });
});
