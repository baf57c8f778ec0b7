import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const KEY = {
  id: 3,
  org: 7,
  store: "app_store",
  key_name: "CI key",
  issuer_id: "69a6de7e-0000-47e3-e053-5b8c7c11a4d1",
  key_id: "2X9R4HXF34",
  client_email: null,
  created_at: "2026-03-04T05:06:07Z",
};

describe("app stores page", () => {
  useSignedInTestSession();

  it("adds an App Store Connect key, showing the store's refusal under the key file first", async () => {
    let posts = 0;
    let saved: unknown[] = [];
    const calls = stubApi({
      "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 1 })] })] },
      "GET /api/apple-developer-accounts/?org=7": () => ({ status: 200, body: saved }),
      "GET /api/google-developer-accounts/?org=7": { status: 200, body: [] },
      "POST /api/apple-developer-accounts/": () => {
        posts += 1;
        if (posts === 1) {
          return {
            status: 400,
            body: { private_key_file: ["App Store Connect refused the key: NOT_AUTHORIZED"] },
          };
        }
        saved = [KEY];
        return { status: 201, body: KEY };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/store");
    const form = await screen.findByRole("form", { name: "Add an App Store Connect API key" });
    await user.type(within(form).getByLabelText(/^Name/), "CI key");
    await user.type(within(form).getByLabelText(/^Issuer ID/), KEY.issuer_id);
    await user.type(within(form).getByLabelText(/^Key ID/), KEY.key_id);
    const p8 = new File(["-----BEGIN PRIVATE KEY-----"], "AuthKey_2X9R4HXF34.p8");
    await user.upload(form.querySelector('input[type="file"]') as HTMLInputElement, p8);
    await user.click(within(form).getByRole("button", { name: "Check and add" }));
    expect(await within(form).findByText("App Store Connect refused the key: NOT_AUTHORIZED")).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Check and add" }));
    expect(
      await screen.findByText("Key 2X9R4HXF34 · issuer 69a6de7e-0000-47e3-e053-5b8c7c11a4d1"),
    ).toBeTruthy();
    const body = calls.filter((call) => call.method === "POST").at(-1)?.body as FormData;
    expect(body.get("org")).toBe("7");
    expect(body.get("key_id")).toBe(KEY.key_id);
    expect((body.get("private_key_file") as File).name).toBe("AuthKey_2X9R4HXF34.p8");
  });

  it("deletes an account after asking", async () => {
    let saved: unknown[] = [
      {
        ...KEY,
        store: "google_play",
        key_name: "Play",
        issuer_id: null,
        key_id: null,
        client_email: "p@x.iam.gserviceaccount.com",
      },
    ];
    const calls = stubApi({
      "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 2 })] })] },
      "GET /api/apple-developer-accounts/?org=7": { status: 200, body: [] },
      "GET /api/google-developer-accounts/?org=7": () => ({ status: 200, body: saved }),
      "DELETE /api/google-developer-accounts/3/": () => {
        saved = [];
        return { status: 204, body: null };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/store");
    expect(await screen.findByText("p@x.iam.gserviceaccount.com")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Delete account" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Delete account" }));
    await waitFor(() => expect(calls.some((call) => call.method === "DELETE")).toBe(true));
    await waitFor(() => expect(screen.queryByText("p@x.iam.gserviceaccount.com")).toBeNull());
  });
});
