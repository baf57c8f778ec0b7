import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { setToken } from "../../../api/token.ts";
import { renderApp, stubApi } from "../../../test/render.tsx";

const UDID = "00008030-001A2C3E0E68802E";
const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

describe("device identifier page", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("offers the enrolment profile on an iPhone", async () => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(IPHONE_UA);
    renderApp("/get-my-udid");
    const register = await screen.findByRole("link", { name: "Register this device" });
    expect(register.getAttribute("href")).toBe("/api/udid/profile/");
    expect(screen.getAllByRole("listitem")).toHaveLength(3);
    expect(screen.queryByRole("img", { name: "QR code of the device identifier page" })).toBeNull();
  });

  it("shows desktop visitors a QR code to open the page on the device", async () => {
    renderApp("/get-my-udid");
    const qr = await screen.findByRole("img", { name: "QR code of the device identifier page" });
    expect(qr.getAttribute("data-value")).toBe(`${window.location.origin}/get-my-udid`);
  });

  it("shows the UDID handed back, copies it, and stays quiet about builds when signed out", async () => {
    const user = userEvent.setup();
    const calls = stubApi({});
    renderApp(`/get-my-udid?udid=${UDID}&product=iPhone15,2&version=17.4`);
    expect(await screen.findByText(UDID)).toBeTruthy();
    expect(screen.getByText("iPhone15,2 · iOS 17.4")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Copy UDID" }));
    expect(await screen.findByText("Copied to clipboard")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(UDID);
    expect(calls.filter((call) => call.url.startsWith("/api/udid/lookup/"))).toHaveLength(0);
  });

  it("lists the builds that include the device for a signed-in user", async () => {
    setToken("tok");
    stubApi({
      [`GET /api/udid/lookup/?udid=${UDID}`]: {
        status: 200,
        body: {
          udid: UDID,
          builds: [
            {
              id: 9,
              app: 4,
              title: "Rocket",
              app_type: 1,
              version: "3.1.0",
              build_version_number: "310",
              date: "2026-03-04T05:06:07Z",
            },
          ],
        },
      },
    });
    renderApp(`/get-my-udid?udid=${UDID}`);
    const link = await screen.findByRole("link", { name: "Rocket 3.1.0 (310)" });
    expect(link.getAttribute("href")).toBe("/dashboard/apps/4");
  });

  it("says when no build includes the device yet", async () => {
    setToken("tok");
    stubApi({ [`GET /api/udid/lookup/?udid=${UDID}`]: { status: 200, body: { udid: UDID, builds: [] } } });
    renderApp(`/get-my-udid?udid=${UDID}`);
    expect(await screen.findByText("No build of your apps includes this device yet.")).toBeTruthy();
  });

  it("rejects identifiers that are not UDIDs", async () => {
    renderApp("/get-my-udid?udid=<script>");
    expect(
      await screen.findByText(
        "The device identifier in this link is not valid. Open the enrolment link again.",
      ),
    ).toBeTruthy();
  });
});
