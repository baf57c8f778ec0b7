import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTab, serveDistribution } from "../../../test/app-page-api.ts";
import { chooseMenuItem, pickOption } from "../../../test/mantine-actions.ts";
import { useSignedInTestSession } from "../../../test/render.tsx";

const ACCOUNT = {
  id: 4,
  org: 7,
  store: "google_play",
  key_name: "Play publisher",
  issuer_id: null,
  key_id: null,
  client_email: "p@x.iam.gserviceaccount.com",
  created_at: "2026-03-04T05:06:07Z",
};

function upload(state: string, progress: number, message: string) {
  return {
    task_id: "0b7e6a4e-3c1f-4d55-9b0e-0d6a3c1f4d55",
    store: "google_play",
    app: 1,
    version: 100,
    version_title: "1.2.0 (42)",
    integration_id: 4,
    state,
    progress,
    message,
    track: "beta",
    attempts: 1,
    created_by: 11,
    created_at: "2026-03-04T05:06:07Z",
    updated_at: "2026-03-04T05:06:07Z",
  };
}

describe("publish to store", () => {
  useSignedInTestSession();

  it("checks the build, sends it to the chosen track and shows its progress to the end", async () => {
    let polls = 0;
    const calls = serveDistribution({
      "GET /api/google-developer-accounts/?org=7": { status: 200, body: [ACCOUNT] },
      "GET /api/store-uploads/?app_id=1": { status: 200, body: [] },
      "POST /api/check_possibility_to_upload_aab/": {
        status: 200,
        body: {
          ok: true,
          checks: [
            { name: "signing", ok: true, detail: "Signed (with the upload key, as Play expects)." },
            { name: "build_version", ok: true, detail: "Build 42 is higher than the store's latest, 41." },
          ],
          store_latest_build: "41",
        },
      },
      "POST /api/upload_aab_googleplay/": { status: 202, body: { task_id: upload("queued", 0, "").task_id } },
      [`GET /api/upload_aab_googleplay/?task_id=${upload("queued", 0, "").task_id}`]: () => {
        polls += 1;
        return {
          status: 200,
          body:
            polls === 1
              ? upload("uploading", 40, "Uploading")
              : upload("done", 100, "Version code 42 is released on the beta track."),
        };
      },
    });
    const { user } = await openTab("Versions (1)");
    await chooseMenuItem(
      user,
      await screen.findByRole("button", { name: "Actions for 1.2.0 (42)" }),
      "Publish to store",
    );
    const dialog = await screen.findByRole("dialog", { name: "Send 1.2.0 to Google Play" });
    expect(await within(dialog).findByText("Ready to publish")).toBeTruthy();
    expect(within(dialog).getByText(/Build 42 is higher than the store's latest, 41/)).toBeTruthy();
    await pickOption(user, within(dialog).getByLabelText("Track"), "Open testing");
    await user.click(within(dialog).getByRole("button", { name: "Publish" }));
    expect(await within(dialog).findByText("40 %")).toBeTruthy();
    await waitFor(
      () => expect(within(dialog).getByText("Version code 42 is released on the beta track.")).toBeTruthy(),
      {
        timeout: 15_000,
      },
    );
    const body = calls.find((call) => call.url === "/api/upload_aab_googleplay/")?.body as FormData;
    expect(body.get("uid")).toBe("100");
    expect(body.get("track")).toBe("beta");
    expect(body.get("integration_id")).toBe("4");
    expect(body.get("release_notes")).toBe("Faster launch");
  }, 45_000);
});
