import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders, stubApi, useSignedInTestSession } from "../../test/render.tsx";
import { PushSection } from "./push-section.tsx";

/** A browser with service workers and the Push API, whose subscription is `subscription`. */
function stubPushBrowser(subscription: { endpoint: string; unsubscribe: () => Promise<boolean> } | null) {
  vi.stubGlobal("isSecureContext", true);
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal("Notification", { requestPermission: async () => "granted" });
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager: { getSubscription: async () => subscription } }) },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

const noDevices = { "GET /api/push/subscriptions/": { status: 200, body: { results: [] } } };

describe("notifications in the profile", () => {
  useSignedInTestSession();

  it("says when the browser has no service workers", async () => {
    stubApi(noDevices);
    renderWithProviders(<PushSection />);
    expect(
      await screen.findByText("Service workers are disabled or not supported by this browser"),
    ).toBeTruthy();
  });

  it("says so when turning off a browser that is not subscribed", async () => {
    stubPushBrowser(null);
    stubApi(noDevices);
    renderWithProviders(<PushSection />);
    await screen.findByText("This browser does not receive your notifications.");
    await userEvent.setup().click(screen.getByRole("button", { name: "Turn off for this browser" }));
    expect(await screen.findByText("Not subscribed to push notifications.")).toBeTruthy();
  });

  it("says so when the push service refuses to unsubscribe, and keeps the server's subscription", async () => {
    stubPushBrowser({ endpoint: "https://push.example/abc", unsubscribe: async () => false });
    const calls = stubApi({
      "GET /api/push/subscriptions/": { status: 200, body: { results: [{ id: 1 }] } },
    });
    renderWithProviders(<PushSection />);
    await screen.findByText("This browser receives your notifications.");
    await userEvent.setup().click(screen.getByRole("button", { name: "Turn off for this browser" }));
    expect(await screen.findByText("Unsubscribe failed!")).toBeTruthy();
    expect(calls.some((call) => call.url.includes("/unsubscribe/"))).toBe(false);
  });

  it("unsubscribes at the push service and the server", async () => {
    const unsubscribe = vi.fn(async () => true);
    stubPushBrowser({ endpoint: "https://push.example/abc", unsubscribe });
    const calls = stubApi({
      "GET /api/push/subscriptions/": { status: 200, body: { results: [{ id: 1 }] } },
      "POST /api/push/subscriptions/unsubscribe/": { status: 204, body: null },
    });
    renderWithProviders(<PushSection />);
    await screen.findByText("This browser receives your notifications.");
    await userEvent.setup().click(screen.getByRole("button", { name: "Turn off for this browser" }));
    expect(await screen.findByText("Notifications are off for this browser.")).toBeTruthy();
    expect(unsubscribe).toHaveBeenCalled();
    expect(calls.find((call) => call.url === "/api/push/subscriptions/unsubscribe/")?.body).toEqual({
      endpoint: "https://push.example/abc",
    });
  });
});
