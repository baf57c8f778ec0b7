import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { GetappBuild, GetappPage } from "../../../api/distribution.ts";
import { jsonResponse, renderApp, stubApi } from "../../../test/render.tsx";

const UA = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  android:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0 Mobile Safari/537.36",
  instagramIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 321.0.0",
  windows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0 Safari/537.36",
};

function useDevice(userAgent: string, touchPoints = 0) {
  vi.spyOn(navigator, "userAgent", "get").mockReturnValue(userAgent);
  Object.defineProperty(navigator, "maxTouchPoints", { value: touchPoints, configurable: true });
}

const IOS: GetappBuild = {
  id: 2,
  platform: "ios",
  app_type: 1,
  version: "3.1.0",
  build_version_number: "310",
  whats_new: "Dark mode",
  size: 12 * 1024 * 1024,
  min_os_version: "15.0",
  date: "2026-03-04T05:06:07Z",
  install: { kind: "itms", url: "itms-services://?action=download-manifest&url=https%3A%2F%2Fx%2Fm.plist" },
};
const ANDROID: GetappBuild = {
  ...IOS,
  id: 1,
  platform: "android",
  app_type: 0,
  whats_new: "",
  min_os_version: "8.0",
  install: { kind: "download", url: "https://tarmac.test/api/dl/1/universal-apk/rocket.apk?sig=1" },
};

function page(overrides: Partial<GetappPage> = {}): GetappPage {
  return {
    title: "Rocket",
    icon: null,
    organization: "Acme",
    description: "",
    access: "public",
    needs_password: false,
    expired: false,
    limit_reached: false,
    https: true,
    builds: [ANDROID, IOS],
    ...overrides,
  };
}

async function open(path = "/getapp/k1") {
  const user = userEvent.setup();
  const view = renderApp(path);
  await screen.findByRole("heading", { name: "Rocket" }, { timeout: 5000 });
  return { user, ...view };
}

describe("install page", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    sessionStorage.clear();
  });

  it("puts the iPhone install first on an iPhone, with the other platforms below", async () => {
    useDevice(UA.iphone, 5);
    const calls = stubApi({ "GET /api/getapp/k1/": { status: 200, body: page() } });
    await open();
    expect(calls[0]?.url).toBe("/api/getapp/k1/");
    const buttons = screen.getAllByRole("link", { name: /Install on iPhone|Download APK/ });
    expect(buttons.map((b) => b.textContent)).toEqual(["Install on iPhone", "Download APK"]);
    expect(buttons[0]?.getAttribute("href")).toBe(IOS.install.url);
    expect(screen.getByText("Other platforms")).toBeTruthy();
    expect(screen.getByText("Dark mode")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Get your UDID" }).getAttribute("href")).toBe("/get-my-udid");
    // Phones get no QR code of the page they are already on.
    expect(screen.queryByRole("img", { name: "QR code of this page" })).toBeNull();
    expect(screen.queryByText("Installing on iOS is not possible")).toBeNull();
  });

  it("disables the iPhone install with the reason when the server is not on HTTPS", async () => {
    useDevice(UA.iphone, 5);
    stubApi({ "GET /api/getapp/k1/": { status: 200, body: page({ https: false }) } });
    await open();
    expect(screen.queryByRole("link", { name: "Install on iPhone" })).toBeNull();
    const install = screen.getByRole("button", { name: "Install on iPhone" }) as HTMLButtonElement;
    expect(install.disabled).toBe(true);
    const reason = document.getElementById(install.getAttribute("aria-describedby") ?? "");
    expect(reason?.textContent).toBe("Installing is not possible: this server is not set up for HTTPS.");
    // Other platforms install as before.
    expect(screen.getByRole("link", { name: "Download APK" }).getAttribute("href")).toBe(ANDROID.install.url);
  });

  it("puts the APK first on Android", async () => {
    useDevice(UA.android, 5);
    stubApi({ "GET /api/getapp/k1/": { status: 200, body: page() } });
    await open();
    const buttons = screen.getAllByRole("link", { name: /Install on iPhone|Download APK/ });
    expect(buttons.map((b) => b.textContent)).toEqual(["Download APK", "Install on iPhone"]);
    expect(buttons[0]?.getAttribute("href")).toBe(ANDROID.install.url);
  });

  it("shows desktop visitors a QR code of the page and every build", async () => {
    useDevice(UA.windows);
    stubApi({
      "GET /api/getapp/k1/": {
        status: 200,
        body: page({
          builds: [
            ANDROID,
            {
              ...ANDROID,
              id: 3,
              platform: "windows",
              app_type: 2,
              install: { kind: "download", url: "/dl/3" },
            },
          ],
        }),
      },
    });
    await open();
    expect(screen.getByRole("link", { name: "Download for Windows" }).getAttribute("href")).toBe("/dl/3");
    expect(screen.getByRole("link", { name: "Download APK" })).toBeTruthy();
    const qr = screen.getByRole("img", { name: "QR code of this page" });
    expect(qr.getAttribute("data-value")).toBe(`${window.location.origin}/getapp/k1`);
    expect(qr.querySelector("path")?.getAttribute("d")).toMatch(/^M\d+ \d+h1v1h-1z/);
  });

  it("warns in embedded browsers and about iOS installs without HTTPS", async () => {
    useDevice(UA.instagramIos, 5);
    stubApi({ "GET /api/getapp/k1/": { status: 200, body: page({ https: false }) } });
    const { user } = await open();
    expect(screen.getByText("Open this page in Safari")).toBeTruthy();
    expect(screen.getByText("Installing on iOS is not possible")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Copy link" }));
    expect(await screen.findByText("Copied to clipboard")).toBeTruthy();
  });

  it("asks for the password, unlocks and keeps the access token for the tab", async () => {
    useDevice(UA.android, 5);
    const calls = stubApi({
      "GET /api/getapp/k1/": {
        status: 200,
        body: page({ access: "password", needs_password: true, builds: [] }),
      },
      "POST /api/getapp/k1/unlock/": ({ body }) =>
        (body as { password: string }).password === "s3cret"
          ? { status: 200, body: { access_token: "tok-1", expires_in: 3600 } }
          : { status: 400, body: { detail: "Wrong password." } },
      "GET /api/getapp/k1/?access_token=tok-1": { status: 200, body: page({ access: "password" }) },
    });
    const { user } = await open();
    const input = screen.getByLabelText(/^Password/);
    await user.type(input, "nope");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("The password is not correct.")).toBeTruthy();
    await user.clear(input);
    await user.type(input, "s3cret");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("link", { name: "Download APK" })).toBeTruthy();
    expect(calls.at(-1)?.url).toBe("/api/getapp/k1/?access_token=tok-1");
    expect(sessionStorage.getItem("getapp-access:k1")).toBe("tok-1");
  });

  it("sends visitors of members-only links to sign in", async () => {
    useDevice(UA.android, 5);
    stubApi({
      "GET /api/getapp/k1/": { status: 403, body: { detail: "Sign in.", login_required: true } },
    });
    renderApp("/getapp/k1");
    expect(
      await screen.findByText(
        "This app is available to team members and invited testers only. Sign in to continue.",
      ),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      "/login?next=%2Fgetapp%2Fk1",
    );
  });

  it("tells expired and exhausted links apart", async () => {
    stubApi({
      "GET /api/getapp/old/": { status: 410, body: { detail: "Expired.", expired: true } },
      "GET /api/getapp/full/": { status: 410, body: { detail: "Limit.", limit_reached: true } },
    });
    const first = renderApp("/getapp/old");
    expect(await screen.findByText("This install link has expired.")).toBeTruthy();
    first.unmount();
    renderApp("/getapp/full");
    expect(await screen.findByText("This install link has reached its install limit.")).toBeTruthy();
  });

  it("opens the key entered on /getapp and explains unknown keys", async () => {
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
  });

  it("lays the builds out as labelled sections", async () => {
    useDevice(UA.iphone, 5);
    stubApi({ "GET /api/getapp/k1/": { status: 200, body: page() } });
    await open();
    const ios = screen.getByRole("region", { name: "iOS" });
    expect(within(ios).getByText("Version 3.1.0 (310)")).toBeTruthy();
    expect(within(ios).getByText(/12\.0 MB · requires iOS 15\.0 or later/)).toBeTruthy();
  });
});
