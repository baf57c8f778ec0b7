import type { FeedbackItem } from "@tarmac/contracts";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTab, serveDistribution } from "../../../test/app-page-api.ts";
import { pageOf } from "../../../test/application-fixtures.ts";
import { pickOption } from "../../../test/mantine-actions.ts";
import { useSignedInTestSession } from "../../../test/render.tsx";

function makeItem(overrides: Partial<FeedbackItem> = {}): FeedbackItem {
  return {
    id: 21,
    app: 1,
    app_title: "Rocket",
    app_type: 0,
    organization: 7,
    status: 0,
    tag: "bug",
    description: "The login button does nothing",
    email: "tess@example.test",
    build_version: "1.4.1",
    system_version: "14",
    device_name: "Pixel 8",
    device_uudid: "a1b2",
    navigation_stack: "Main > Login",
    image: "https://tarmac.test/api/files/x.png",
    image_width: 1080,
    image_height: 2400,
    version: { id: 100, version: "1.4.1", build_version_number: "41" },
    assignee: null,
    internal_note: "",
    created_at: "2026-11-20T10:00:00Z",
    updated_at: "2026-11-20T10:00:00Z",
    ...overrides,
  };
}

const LIST = "GET /api/feedback-mobile-data/?app_id=1&page=1&status=4&ordering=-created_at";

describe("the app's Feedback tab", () => {
  useSignedInTestSession();

  it("lists open reports, opens one with the keyboard and triages it", async () => {
    const second = makeItem({
      id: 22,
      tag: "design",
      description: "Logo is blurry",
      device_name: "Galaxy S24",
    });
    const calls = serveDistribution({
      [LIST]: { status: 200, body: pageOf([makeItem(), second]) },
      "GET /api/feedback-mobile-data/22/": { status: 200, body: second },
      "GET /api/usersinorgs/?org=7&page=1&page_size=20": {
        status: 200,
        body: pageOf([
          {
            id: 3,
            userid: 11,
            email: "ann@example.com",
            first_name: "Ann",
            last_name: "Lee",
            role: 2,
            organization: 7,
            teams: [],
            projects: [],
            is_active: true,
            two_factor_enabled: false,
            created_at: "2026-01-01T00:00:00Z",
          },
        ]),
      },
      "PATCH /api/feedback-mobile-data/22/": {
        status: 200,
        body: {
          ...second,
          status: 1,
          assignee: { id: 11, email: "ann@example.com", first_name: "Ann", last_name: "Lee" },
          updated_at: "2026-11-21T10:00:00Z",
        },
      },
    });
    const { user } = await openTab("Feedback");
    const table = await screen.findByRole("table", { name: "Feedback reports" });
    expect(within(table).getAllByTestId("feedback-row")).toHaveLength(2);
    const first = within(table).getByRole("button", { name: /The login button does nothing/ });
    first.focus();
    fireEvent.keyDown(first, { key: "ArrowDown" });
    const next = within(table).getByRole("button", { name: /Logo is blurry/ });
    await waitFor(() => expect(document.activeElement).toBe(next));
    await user.keyboard("{Enter}");
    const detail = await screen.findByTestId("feedback-detail");
    expect(within(detail).getByRole("img", { name: "Screenshot from Rocket" })).toBeTruthy();
    expect(within(detail).getByRole("link", { name: "Open build 1.4.1 (41)" }).getAttribute("href")).toBe(
      "/dashboard/apps/1",
    );
    await user.click(within(detail).getByRole("button", { name: "Zoom into the screenshot" }));
    expect(
      within(detail).getByRole("button", { name: "Fit the screenshot" }).getAttribute("aria-pressed"),
    ).toBe("true");
    await pickOption(user, within(detail).getByRole("combobox", { name: "Status" }), "In progress");
    await pickOption(user, within(detail).getByRole("combobox", { name: "Assignee" }), "Ann Lee");
    await user.click(within(detail).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Report updated.")).toBeTruthy();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({
      status: 1,
      assignee: 11,
      internal_note: "",
    });
  });

  it("switches feedback and update prompts for the SDK", async () => {
    const calls = serveDistribution({
      [LIST]: { status: 200, body: pageOf([]) },
      "PATCH /api/applications/1/": (call) => ({
        status: 200,
        body: { ...(call.body as object), id: 1, feedback_enabled: false, autoupdate_enabled: true },
      }),
    });
    const { user } = await openTab("Feedback");
    expect(await screen.findByTestId("feedback-empty")).toBeTruthy();
    await user.click(screen.getByRole("switch", { name: "Testers can send feedback from the app" }));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({ feedback_enabled: false });
  });
});
