import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../test/render.tsx";

describe("download page", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("opens the key entered on /getapp", async () => {
    const user = userEvent.setup();
    const { router } = renderApp("/getapp");
    await user.type(await screen.findByLabelText(/^Download code/), "k7Q2");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => jsonResponse(404, { detail: "Not found." })),
    );
    await user.click(screen.getByRole("button", { name: "Open" }));
    expect(await screen.findByText("This download link is not valid or has expired.")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/getapp/k7Q2");
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe("/api/getapp/k7Q2/");
  });

  it("shows the app, its version and the download button", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        jsonResponse(200, {
          title: "Field Notes",
          app_type: 0,
          version: "2.4.1",
          build_version_number: 241,
          download_url: "/api/download/abc/",
        }),
      ),
    );
    renderApp("/getapp/abc");
    expect(await screen.findByRole("heading", { name: "Field Notes" })).toBeTruthy();
    expect(screen.getByText("Android")).toBeTruthy();
    expect(screen.getByText("Version 2.4.1")).toBeTruthy();
    expect(screen.getByText("Build 241")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Download" }).getAttribute("href")).toBe("/api/download/abc/");
  });
});

describe("device identifier page", () => {
  it("shows the UDID handed back in the link", async () => {
    renderApp("/get-my-udid?udid=00008030-001A2C3E0E68802E");
    expect(await screen.findByText("00008030-001A2C3E0E68802E")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy UDID" })).toBeTruthy();
  });

  it("explains how to get there when no identifier came with the link", async () => {
    renderApp("/get-my-udid");
    expect(
      await screen.findByText(
        "No device identifier has been received yet. Open this page through the device enrolment link your team shared with you.",
      ),
    ).toBeTruthy();
  });
});
