import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MyAppRole } from "../../api/applications.ts";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { makeApp, makePreload, makeVersion, pageOf } from "../../test/application-fixtures.ts";
import { FakeTransfer } from "../../test/fake-transfer.ts";
import { FakeXhr } from "../../test/fake-xhr.ts";
import { chooseMenuItem } from "../../test/mantine-actions.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const FULL: MyAppRole = {
  role: 2,
  project_role: null,
  can_upload: true,
  can_edit: true,
  can_delete: true,
  can_download: true,
};
const READ_ONLY: MyAppRole = { ...FULL, role: 5, can_upload: false, can_edit: false, can_delete: false };

const APP = makeApp({
  other_platform: [{ id: 2, title: "Rocket", app_type: 1, environment: "production" }],
  environments: [
    { id: 1, title: "Rocket", app_type: 0, environment: "production" },
    { id: 5, title: "Rocket", app_type: 0, environment: "qa" },
  ],
});
const IOS_VERSION = makeVersion({
  id: 101,
  version: "1.1.0",
  build_version_number: "41",
  whats_new: "",
  git_url: "git@github.com:acme/rocket.git",
  git_branch: "release/1.1",
  git_tag: "v1.1.0",
  git_commit: "0123456789abcdef",
  build_type: "Fastlane",
  metadata: {
    signing: { signed: true, schemes: ["cms"], certificates: [] },
    provisioning: { kind: "ad_hoc", expired: false, expires: "2027-01-01T00:00:00Z", devices: ["a", "b"] },
  },
});

function serve(rights: MyAppRole, extra: Record<string, ApiReply | (() => ApiReply)> = {}) {
  return stubApi({
    "GET /api/profiles/": {
      status: 200,
      body: [makeProfile({ org_data: [makeOrg({ role: rights.role })] })],
    },
    "GET /api/applications/1/?showenvall=1": { status: 200, body: APP },
    "GET /api/applications/1/check_my_role/": { status: 200, body: rights },
    "GET /api/applications/1/builds/?page=1": { status: 200, body: pageOf([makeVersion(), IOS_VERSION]) },
    "GET /api/app-logs/1/?page=1": {
      status: 200,
      body: pageOf([
        {
          id: 1,
          action: "version.uploaded",
          detail: {},
          user: { id: 11, email: "ann@example.com", first_name: "Ann", last_name: "" },
          version: 100,
          created_at: "2026-03-04T05:06:07Z",
        },
      ]),
    },
    ...extra,
  });
}

async function openPage() {
  const user = userEvent.setup();
  const view = renderApp("/dashboard/apps/1");
  // The first visit loads the page's lazy module, which is slow on a busy machine.
  await screen.findByRole("heading", { name: "Rocket" }, { timeout: 5000 });
  await screen.findByText("Faster launch");
  return { user, ...view };
}

function row(version: string): HTMLElement {
  return screen.getByText(version).closest("tr") as HTMLElement;
}

describe("app page", () => {
  useSignedInTestSession();
  beforeEach(() => {
    FakeXhr.all = [];
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    FakeTransfer.install();
  });

  it("shows the header, switchers, builds and activity, and copies the app key", async () => {
    serve(FULL);
    const { user } = await openPage();
    expect(screen.getByText("com.acme.rocket")).toBeTruthy();
    const platforms = screen.getByRole("navigation", { name: "Platforms" });
    expect(within(platforms).getByRole("link", { name: "iOS" }).getAttribute("href")).toBe(
      "/dashboard/apps/2",
    );
    expect(within(platforms).getByRole("link", { name: "Android" }).getAttribute("aria-current")).toBe(
      "page",
    );
    const environments = screen.getByRole("navigation", { name: "Environments" });
    expect(within(environments).getByRole("link", { name: "qa" }).getAttribute("href")).toBe(
      "/dashboard/apps/5",
    );

    const android = row("1.2.0");
    for (const text of ["42", "5.0 MB", "Ann Lee", "3 / 1", "Android 8.0 (API 26)", "Signed (v2, v3)"]) {
      expect(within(android).getByText(text)).toBeTruthy();
    }
    expect(within(android).getByRole("link", { name: "Download 1.2.0 (42)" }).getAttribute("href")).toBe(
      "/files/signed/rocket.apk",
    );
    expect(within(row("1.1.0")).getByText(/^Signed \(cms\) · Ad hoc · expires .* · 2 devices$/)).toBeTruthy();

    // A CI build shows where it came from, linked into the repository.
    const ios = row("1.1.0");
    expect(
      within(ios)
        .getByRole("link", { name: /01234567/ })
        .getAttribute("href"),
    ).toBe("https://github.com/acme/rocket/commit/0123456789abcdef");
    expect(
      within(ios)
        .getByRole("link", { name: /release\/1\.1/ })
        .getAttribute("href"),
    ).toBe("https://github.com/acme/rocket/tree/release/1.1");
    expect(within(ios).getByRole("link", { name: /v1\.1\.0/ })).toBeTruthy();
    expect(within(ios).getByText("Fastlane")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Copy App key" }));
    expect(await screen.findByText("Copied to clipboard")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe("key-abc");

    await user.click(screen.getByRole("tab", { name: "Activity" }));
    expect(await screen.findByText("version uploaded")).toBeTruthy();
    expect(screen.getByText("Ann")).toBeTruthy();
  });

  it("hides what check_my_role does not allow", async () => {
    serve({ ...READ_ONLY, can_download: false });
    await openPage();
    for (const name of ["Upload new version", "Edit", "Delete app"]) {
      expect(screen.queryByRole("button", { name })).toBeNull();
    }
    expect(screen.queryByText("Upload path")).toBeNull();
    expect(screen.queryByRole("button", { name: /^Actions for/ })).toBeNull();
    expect(screen.queryByRole("link", { name: /^Download/ })).toBeNull();
    expect(
      (screen.getByRole("switch", { name: "Ready for distribution: 1.2.0 (42)" }) as HTMLInputElement)
        .disabled,
    ).toBe(true);
  });

  it("toggles ready_to_sale and edits release notes", async () => {
    const calls = serve(FULL, {
      "PATCH /api/versions/100/": { status: 200, body: makeVersion() },
    });
    const { user } = await openPage();
    await user.click(screen.getByRole("switch", { name: "Ready for distribution: 1.2.0 (42)" }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        method: "PATCH",
        url: "/api/versions/100/",
        body: { ready_to_sale: false },
      }),
    );

    await chooseMenuItem(
      user,
      screen.getByRole("button", { name: "Actions for 1.2.0 (42)" }),
      "Edit release notes",
    );
    const notes = await screen.findByRole("dialog", { name: "Release notes of 1.2.0" });
    const field = within(notes).getByLabelText("What's new");
    await user.clear(field);
    await user.type(field, " Smaller download ");
    await user.click(within(notes).getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        method: "PATCH",
        url: "/api/versions/100/",
        body: { whats_new: "Smaller download" },
      }),
    );
  });

  it("deletes a version only after confirmation", async () => {
    const calls = serve(FULL, { "DELETE /api/versions/100/": { status: 204, body: null } });
    const { user } = await openPage();
    await chooseMenuItem(
      user,
      screen.getByRole("button", { name: "Actions for 1.2.0 (42)" }),
      "Delete version",
    );
    const confirm = await screen.findByRole("dialog", { name: "Delete version" });
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);
    await user.click(within(confirm).getByRole("button", { name: "Delete version" }));
    await waitFor(() =>
      expect(calls.map((call) => `${call.method} ${call.url}`)).toContain("DELETE /api/versions/100/"),
    );
    expect(await screen.findByText("The version has been deleted.")).toBeTruthy();
  });

  it("deletes the app on every platform and returns to the list", async () => {
    const calls = serve(FULL, {
      "DELETE /api/applications/1/?all=1": { status: 204, body: null },
      "GET /api/applications/?org=7&page=1&page_size=20": { status: 200, body: pageOf([]) },
    });
    const { user, router } = await openPage();
    await user.click(screen.getByRole("button", { name: "Delete app" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete Rocket?" });
    await user.click(within(dialog).getByRole("checkbox", { name: /all other platforms/ }));
    await user.click(within(dialog).getByRole("button", { name: "Delete app" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/apps"));
    expect(calls.map((call) => `${call.method} ${call.url}`)).toContain("DELETE /api/applications/1/?all=1");
  });

  it("uploads a new version of this app without navigating away", async () => {
    const calls = serve(FULL, {
      "POST /api/applications/?app=1": { status: 201, body: APP },
    });
    const { user, router } = await openPage();
    await user.click(screen.getByRole("button", { name: "Upload new version" }));
    const dialog = await screen.findByRole("dialog", { name: "New version of Rocket" });
    expect(within(dialog).queryByRole("combobox", { name: "Organization" })).toBeNull();
    await user.upload(within(dialog).getByLabelText("Build file"), new File(["x"], "rocket.apk"));
    act(() => FakeTransfer.last().finish());
    expect(FakeXhr.last().sent?.get("app")).toBe("1");
    act(() => FakeXhr.last().reply(200, makePreload()));
    await within(dialog).findByText("Completed");
    await user.type(within(dialog).getByLabelText("What's new"), "Fixes");
    await user.click(within(dialog).getByRole("button", { name: "Add" }));
    expect(await screen.findByText("File uploaded successfully")).toBeTruthy();
    const create = calls.find((call) => call.url === "/api/applications/?app=1");
    expect(create?.body).toMatchObject({
      whats_new: "Fixes",
      preload_path: "preloads/7/abc",
      organization: 7,
    });
    expect(router.state.location.pathname).toBe("/dashboard/apps/1");
  });

  it("adds another platform to the project: the new app keeps the project and opens its page", async () => {
    const created = makeApp({ id: 3, app_type: 1, project_app: 9 });
    const calls = serve(FULL, {
      "POST /api/applications/": { status: 201, body: created },
      "GET /api/applications/3/?showenvall=1": { status: 200, body: created },
      "GET /api/applications/3/check_my_role/": { status: 200, body: FULL },
      "GET /api/applications/3/builds/?page=1": { status: 200, body: pageOf([]) },
      "GET /api/app-logs/3/?page=1": { status: 200, body: pageOf([]) },
    });
    const { user, router } = await openPage();
    await user.click(screen.getByRole("button", { name: "Add platform or environment" }));
    const dialog = await screen.findByRole("dialog", {
      name: "Add to Rocket: another platform or environment",
    });
    await user.upload(within(dialog).getByLabelText("Build file"), new File(["x"], "rocket.ipa"));
    act(() => FakeTransfer.last().finish());
    expect(FakeXhr.last().sent?.get("app")).toBeNull();
    act(() => FakeXhr.last().reply(200, makePreload({ app_type: 1, name: "Rocket iOS" })));
    await within(dialog).findByText("Completed");
    const project = within(dialog).getByLabelText(/Project title/) as HTMLInputElement;
    expect(project.value).toBe("Rocket");
    expect(project.readOnly).toBe(true);
    await user.click(within(dialog).getByRole("button", { name: "Add" }));
    expect(await screen.findByText("File uploaded successfully")).toBeTruthy();
    expect(calls.find((call) => call.url === "/api/applications/")?.body).toMatchObject({
      project_app: 9,
      project_title: "Rocket",
      app_type: 1,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/apps/3"));
  });

  it("exchanges a version's file: preload with the app, comment required", async () => {
    const calls = serve(FULL, {
      "POST /api/versions/100/exchange/": { status: 200, body: makeVersion() },
    });
    const { user } = await openPage();
    await chooseMenuItem(
      user,
      screen.getByRole("button", { name: "Actions for 1.2.0 (42)" }),
      "Replace file…",
    );
    const dialog = await screen.findByRole("dialog", { name: "Replace the file of version 1.2.0" });
    const submit = within(dialog).getByRole("button", { name: "Replace file" });
    expect(submit.hasAttribute("disabled")).toBe(true);
    await user.upload(within(dialog).getByLabelText("Build file"), new File(["x"], "rocket.apk"));
    const transfer = FakeTransfer.last();
    expect(transfer.request.organization).toBe(7);
    act(() => transfer.progress(50));
    expect(await within(dialog).findByText("Uploading… 50%")).toBeTruthy();
    expect(submit.hasAttribute("disabled")).toBe(true);
    act(() => transfer.retry());
    expect(await within(dialog).findByText("Connection lost — resuming…")).toBeTruthy();
    act(() => transfer.finish("feedfacefeedfacefeedfacefeedface"));
    expect(FakeXhr.last().sent?.get("app")).toBe("1");
    expect(FakeXhr.last().sent?.get("upload_id")).toBe("feedfacefeedfacefeedfacefeedface");
    act(() => FakeXhr.last().reply(200, makePreload({ preload_path: "preloads/7/new" })));
    await within(dialog).findByText("Completed");
    await user.click(submit);
    expect(await within(dialog).findByText("Please say why the file is replaced.")).toBeTruthy();
    expect(calls.some((call) => call.url.endsWith("/exchange/"))).toBe(false);
    await user.type(within(dialog).getByLabelText(/Comment/), "Signed again");
    await user.click(submit);
    expect(await screen.findByText("File uploaded successfully")).toBeTruthy();
    expect(calls).toContainEqual({
      method: "POST",
      url: "/api/versions/100/exchange/",
      body: { preload_path: "preloads/7/new", comment: "Signed again" },
    });
  });

  it("says when the app does not exist or is not visible", async () => {
    serve(FULL, { "GET /api/applications/1/?showenvall=1": { status: 404, body: { detail: "Not found." } } });
    renderApp("/dashboard/apps/1");
    expect(await screen.findByText("App not found")).toBeTruthy();
  });
});
