import type { Organization } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const ORGANIZATION: Organization = {
  id: 7,
  title: "Acme",
  subdomain: "acme",
  logo: null,
  role: 1,
  user_limit: 0,
  users_count: 2,
  plan: { id: 1, code: "free", title: "Free" },
  created_at: "2026-01-01T00:00:00Z",
  sdk_key: "sdk-old-0123456789",
};

describe("organization settings: SDK key", () => {
  useSignedInTestSession();

  it("shows the SDK key to copy and makes a new one after confirmation", async () => {
    const calls = stubApi({
      "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 1 })] })] },
      "GET /api/organizations/7/": { status: 200, body: ORGANIZATION },
      "GET /api/organizations/7/?newsdkkey=1": {
        status: 200,
        body: { ...ORGANIZATION, sdk_key: "sdk-new-9876543210" },
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/settings");
    expect((await screen.findByTestId("sdk-key", {}, { timeout: 15_000 })).textContent).toBe(
      "sdk-old-0123456789",
    );
    await user.click(screen.getByRole("button", { name: "Copy the SDK key" }));
    expect(await navigator.clipboard.readText()).toBe("sdk-old-0123456789");

    await user.click(screen.getByRole("button", { name: "New SDK key" }));
    const dialog = await screen.findByRole("dialog", { name: "New SDK key" });
    expect(calls.some((call) => call.url.includes("newsdkkey"))).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "New SDK key" }));
    await waitFor(() => expect(screen.getByTestId("sdk-key").textContent).toBe("sdk-new-9876543210"));
  });
});
