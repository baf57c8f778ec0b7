import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeVersion } from "../../../test/application-fixtures.ts";
import { renderWithProviders, stubApi, useSignedInTestSession } from "../../../test/render.tsx";
import { ResignIosForm } from "./resign-ios-form.tsx";

const version = makeVersion({
  id: 7,
  app_type: 1,
  file_name: "Demo.ipa",
  version: "1.4.0",
  build_version_number: "140",
});

// Mantine's FileInput labels a button; the file inputs behind it come in form order.
const fileInputs = () => [...document.querySelectorAll<HTMLInputElement>('input[type="file"]')];

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  const [p12, profiles] = fileInputs();
  await user.upload(p12 as HTMLInputElement, new File(["p12"], "dist.p12"));
  await user.type(screen.getByLabelText("Password of the .p12"), "secret");
  await user.upload(profiles as HTMLInputElement, [
    new File(["a"], "app.mobileprovision"),
    new File(["b"], "widget.mobileprovision"),
  ]);
  await user.click(screen.getByRole("button", { name: "Add a bundle id" }));
  await user.type(screen.getByLabelText("Bundle id in the build"), "com.tarmac.demo");
  await user.type(screen.getByLabelText("New bundle id"), "com.acme.demo");
}

describe("the iOS re-sign form", () => {
  useSignedInTestSession();

  it("asks for the p12 and a profile before sending anything", async () => {
    const calls = stubApi({});
    const user = userEvent.setup();
    renderWithProviders(<ResignIosForm version={version} onDone={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Re-sign" }));
    expect(
      await screen.findByText("Choose the .p12 file with your certificate and its private key."),
    ).toBeTruthy();
    expect(screen.getByText("Choose at least one provisioning profile.")).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it("sends the form and shows the task's outcome", async () => {
    const calls = stubApi({
      "POST /api/app-resign-ios-build/": { status: 202, body: { task_id: "t-1", id: 3 } },
      "GET /api/upload-task-result/t-1/": {
        status: 200,
        body: {
          task_id: "t-1",
          state: "FAILURE",
          result: null,
          error_code: 9,
          detail: "The IPA could not be re-signed: disk full",
        },
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<ResignIosForm version={version} onDone={vi.fn()} />);
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Re-sign" }));
    expect(await screen.findByText("The IPA could not be re-signed: disk full")).toBeTruthy();
    const sent = calls.find((call) => call.method === "POST")?.body as FormData;
    expect(sent.get("build_id")).toBe("7");
    expect(sent.get("password")).toBe("secret");
    expect(sent.getAll("file_pp").map((file) => (file as File).name)).toEqual([
      "app.mobileprovision",
      "widget.mobileprovision",
    ]);
    expect(JSON.parse(String(sent.get("bundle_ids")))).toEqual({ "com.tarmac.demo": "com.acme.demo" });
  });

  it("shows what to fix when the server refuses the set-up (error 8)", async () => {
    stubApi({
      "POST /api/app-resign-ios-build/": {
        status: 400,
        body: {
          error_code: 8,
          detail: "No provisioning profile matches the bundle id com.acme.demo.widget.",
        },
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<ResignIosForm version={version} onDone={vi.fn()} />);
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Re-sign" }));
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toContain("No provisioning profile matches"),
    );
  });
});
