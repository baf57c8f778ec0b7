import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AppKeystore } from "../../../api/android-signing.ts";
import type { MyAppRole } from "../../../api/applications.ts";
import { makeOrg, makeProfile } from "../../../test/account-fixtures.ts";
import { makeApp, makeVersion, pageOf } from "../../../test/application-fixtures.ts";
import { chooseMenuItem } from "../../../test/mantine-actions.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../../test/render.tsx";

const ADMIN: MyAppRole = {
  role: 2,
  project_role: null,
  can_upload: true,
  can_edit: true,
  can_delete: true,
  can_download: true,
};

const GENERATED: AppKeystore = {
  app: 1,
  configured: false,
  file_name: "",
  store_type: null,
  key_alias: "",
  certificate: null,
  updated_at: null,
  warnings: [],
  effective_source: "generated",
  effective_certificate: null,
  internal_testing_only: true,
};

const NOT_STARTED = {
  build_id: 100,
  task_id: null,
  state: null,
  error_code: null,
  detail: "",
  has_universal_apk: false,
  effective_source: "app",
  internal_testing_only: false,
};

function serve(extra: Record<string, ApiReply | (() => ApiReply)>) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 2 })] })] },
    "GET /api/applications/1/?showenvall=1": { status: 200, body: makeApp() },
    "GET /api/applications/1/check_my_role/": { status: 200, body: ADMIN },
    "GET /api/applications/1/builds/?page=1": { status: 200, body: pageOf([makeVersion()]) },
    "GET /api/app-logs/1/?page=1": { status: 200, body: pageOf([]) },
    ...extra,
  });
}

async function openPage(path = "/dashboard/apps/1") {
  const user = userEvent.setup();
  renderApp(path);
  await screen.findByRole("heading", { name: "Rocket" }, { timeout: 5000 });
  return user;
}

describe("signing Android builds", () => {
  useSignedInTestSession();

  it("signs a version from its menu and reports when the signed APK is there", async () => {
    const calls = serve({
      "GET /api/app-resign-aab-build/?build_id=100": { status: 200, body: NOT_STARTED },
      "POST /api/app-resign-aab-build/": { status: 202, body: { task_id: "t1" } },
      "GET /api/upload-task-result/t1/": {
        status: 200,
        body: { task_id: "t1", state: "SUCCESS", result: null, error_code: null, detail: "" },
      },
    });
    const user = await openPage();
    await screen.findByText("Faster launch");
    await chooseMenuItem(user, screen.getByRole("button", { name: "Actions for 1.2.0 (42)" }), "Sign…");
    const dialog = await screen.findByRole("dialog", { name: "Sign version 1.2.0" });
    expect(within(dialog).getByText(/Signs this APK with the app's key/)).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Sign" }));
    expect(
      await within(dialog).findByText("Signed. The install page now offers the signed APK."),
    ).toBeTruthy();
    const post = calls.find((call) => call.method === "POST");
    expect(post?.body).toEqual({ build_id: 100 });
  });

  it("shows error 8 when the instance cannot sign the build", async () => {
    serve({
      "GET /api/app-resign-aab-build/?build_id=100": { status: 200, body: NOT_STARTED },
      "POST /api/app-resign-aab-build/": {
        status: 400,
        body: {
          error_code: 8,
          detail: "Converting Android App Bundles to APKs is not set up on this instance.",
        },
      },
    });
    const user = await openPage();
    await screen.findByText("Faster launch");
    await chooseMenuItem(user, screen.getByRole("button", { name: "Actions for 1.2.0 (42)" }), "Sign…");
    const dialog = await screen.findByRole("dialog", { name: "Sign version 1.2.0" });
    await user.click(within(dialog).getByRole("button", { name: "Sign" }));
    expect(
      await within(dialog).findByText("You have not set up your Android App Bundle configuration."),
    ).toBeTruthy();
  });

  it("the signing tab says the generated key is for internal testing and sends the keystore form", async () => {
    const calls = serve({
      "GET /api/app-keystore/1/": { status: 200, body: GENERATED },
      "PUT /api/app-keystore/1/": {
        status: 400,
        body: { store_password: ["The keystore password is wrong."] },
      },
    });
    const user = await openPage("/dashboard/apps/1?tab=signing");
    expect(await screen.findByText("For internal testing only")).toBeTruthy();
    expect(screen.getByText("A key Tarmac generated for this app.")).toBeTruthy();
    const form = screen.getByRole("form", { name: "Upload a keystore" });
    const input = form.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(["keystore"], "release.jks"));
    await user.type(within(form).getByLabelText(/Keystore password/), "wrong");
    await user.type(within(form).getByLabelText(/Key alias/), "release");
    await user.click(within(form).getByRole("button", { name: "Check and save" }));
    expect(await within(form).findByText("The keystore password is wrong.")).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.method === "PUT")).toBe(true));
    const sent = calls.find((call) => call.method === "PUT")?.body as FormData;
    expect(sent.get("store_password")).toBe("wrong");
    expect(sent.get("key_alias")).toBe("release");
    expect((sent.get("keystore_file") as File).name).toBe("release.jks");
  });
});
