import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTab, serveDistribution } from "../../../test/app-page-api.ts";
import { pageOf } from "../../../test/application-fixtures.ts";
import { makeLink } from "../../../test/distribution-fixtures.ts";
import { chooseMenuItem } from "../../../test/mantine-actions.ts";
import { useSignedInTestSession } from "../../../test/render.tsx";

function card(name: string): HTMLElement {
  return screen.getByRole("article", { name: `Install link: ${name}` });
}

describe("install links on the Distribution tab", () => {
  useSignedInTestSession();

  it("lists the app link first with its QR code, settings and counts, and copies it", async () => {
    serveDistribution();
    const { user } = await openTab("Distribution");
    const cards = await screen.findAllByRole("article", { name: /^Install link/ });
    expect(cards.map((item) => item.getAttribute("aria-label"))).toEqual([
      "Install link: App link (newest build)",
      "Install link: 1.2.0 (42)",
    ]);
    const appLink = card("App link (newest build)");
    expect(
      within(appLink).getByRole("img", { name: "QR code of the link: App link (newest build)" }),
    ).toBeTruthy();
    expect(within(appLink).getByText("https://tarmac.test/getapp/appkey1")).toBeTruthy();
    expect(within(appLink).getByText("Anyone with the link")).toBeTruthy();
    expect(
      within(appLink).getByText("does not expire · no install limit · installs: 4, downloads: 7"),
    ).toBeTruthy();
    await user.click(within(appLink).getByRole("button", { name: "Copy link" }));
    expect(await screen.findByText("Copied to clipboard")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe("https://tarmac.test/getapp/appkey1");
    expect(screen.getByRole("link", { name: "Download PDF" }).getAttribute("href")).toBe(
      "/api/applications/1/permanent_link_pdf/",
    );
  });

  it("creates a password link for one version with an expiry and an install limit", async () => {
    const calls = serveDistribution({
      "POST /api/distributions/": {
        status: 201,
        body: makeLink({ id: 3, version: 100, access: "password" }),
      },
    });
    const { user } = await openTab("Distribution");
    await user.click(await screen.findByRole("button", { name: "New install link" }));
    const dialog = await screen.findByRole("dialog", { name: "New install link" });
    await user.click(within(dialog).getByRole("combobox", { name: "Build" }));
    await user.click(await screen.findByRole("option", { name: "1.2.0 (42)", hidden: true }));
    await user.click(within(dialog).getByText("With password"));
    await user.type(within(dialog).getByLabelText(/^Password/), "s3cret-pass");
    const expiry = within(dialog).getByLabelText(/^Valid until/);
    await user.type(expiry, "2026-12-31");
    const limit = within(dialog).getByRole("textbox", { name: /Install limit/ });
    await user.clear(limit);
    await user.type(limit, "25");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("The install link has been saved.")).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      app: 1,
      version: 100,
      access: "password",
      password: "s3cret-pass",
      expires_at: "2026-12-31T23:59:59Z",
      install_limit: 25,
      name: null,
    });
  });

  it("keeps expired and used-up links behind a toggle, and titles links by their names", async () => {
    serveDistribution({
      "GET /api/distributions/?app=1&page_size=100": {
        status: 200,
        body: pageOf([
          makeLink({ id: 4, version: 100, key: "old", name: "Spring beta", state: "expired", expired: true }),
          makeLink({
            id: 3,
            version: 100,
            key: "full",
            state: "used_up",
            limit_reached: true,
            access: "members",
          }),
          makeLink({ id: 2, version: 100, key: "qa", name: "QA team", access: "password" }),
          makeLink(),
        ]),
      },
    });
    const { user } = await openTab("Distribution");
    const cards = await screen.findAllByRole("article", { name: /^Install link/ });
    expect(cards).toHaveLength(2);
    expect(within(cards[1] as HTMLElement).getByText("QA team")).toBeTruthy();
    const toggle = screen.getByRole("switch", { name: "Show expired and used-up links (2)" });
    await user.click(toggle);
    const inactive = await screen.findByRole("region", { name: "Expired and used-up links" });
    expect(within(inactive).getByText("Spring beta")).toBeTruthy();
    expect(within(inactive).getByText("Expired")).toBeTruthy();
    expect(within(inactive).getByText("Used up")).toBeTruthy();
    await user.click(toggle);
    await waitFor(() =>
      expect(screen.queryByRole("region", { name: "Expired and used-up links" })).toBeNull(),
    );
  });

  it("names a link, says the limit counts devices, and shows an expiry refusal under its field", async () => {
    const calls = serveDistribution({
      "POST /api/distributions/": {
        status: 400,
        body: { expires_at: ["The expiry time must be in the future."] },
      },
    });
    const { user } = await openTab("Distribution");
    await user.click(await screen.findByRole("button", { name: "New install link" }));
    const dialog = await screen.findByRole("dialog", { name: "New install link" });
    expect(
      within(dialog).getByText(/one device counts once per build, however many times it downloads/),
    ).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Name/), "QA team");
    await user.type(within(dialog).getByLabelText(/^Valid until/), "2020-01-01");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("The expiry time must be in the future.")).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toMatchObject({
      name: "QA team",
      expires_at: "2020-01-01T23:59:59Z",
    });
  });

  it("changes a link's access and deletes a version link after confirmation", async () => {
    const calls = serveDistribution({
      "PATCH /api/distributions/1/": { status: 200, body: makeLink({ access: "members" }) },
      "DELETE /api/distributions/2/": { status: 204, body: null },
    });
    const { user } = await openTab("Distribution");
    await screen.findAllByRole("article", { name: /^Install link/ });
    await user.click(screen.getByRole("button", { name: "Actions for the link: App link (newest build)" }));
    const settings = await screen.findByRole("menuitem", { name: "Link settings", hidden: true });
    // The app link always exists; only links to single versions can be deleted.
    expect(screen.queryByRole("menuitem", { name: "Delete link", hidden: true })).toBeNull();
    await user.click(settings);
    const dialog = await screen.findByRole("dialog", { name: "Link settings" });
    await user.click(within(dialog).getByText("Members and testers"));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((call) => call.method === "PATCH")).toBe(true));
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({
      access: "members",
      expires_at: null,
      install_limit: 0,
      name: null,
    });

    await chooseMenuItem(
      user,
      screen.getByRole("button", { name: "Actions for the link: 1.2.0 (42)" }),
      "Delete link",
    );
    const confirm = await screen.findByRole("dialog", { name: "Delete link" });
    await user.click(within(confirm).getByRole("button", { name: "Delete link" }));
    expect(await screen.findByText("The install link has been deleted.")).toBeTruthy();
    expect(calls.some((call) => call.method === "DELETE" && call.url === "/api/distributions/2/")).toBe(true);
  });

  it("shows per-platform install and download counts of a version", async () => {
    serveDistribution({
      "GET /api/versions/100/installs/": {
        status: 200,
        body: [
          { platform: "android", kind: "download", count: 5 },
          { platform: "iphone", kind: "install", count: 2 },
          { platform: "ipad", kind: "install", count: 1 },
        ],
      },
    });
    const { user } = await openTab("Versions (1)");
    await user.click(await screen.findByRole("button", { name: "Downloads and installs of 1.2.0 (42)" }));
    const table = await screen.findByRole("table", {
      name: "Downloads and installs of 1.2.0 (42)",
      hidden: true,
    });
    const rows = within(table)
      .getAllByRole("row", { hidden: true })
      .map((row) => row.textContent);
    expect(rows).toEqual(["PlatformInstallsDownloads", "Android05", "iOS30"]);
  });

  it("hides the tab from members who may not distribute", async () => {
    serveDistribution(
      {},
      {
        ...(await import("../../../test/app-page-api.ts")).ADMIN,
        role: 5,
        can_upload: false,
        can_edit: false,
      },
    );
    const { renderApp } = await import("../../../test/render.tsx");
    renderApp("/dashboard/apps/1");
    await screen.findByRole("heading", { name: "Rocket" }, { timeout: 5000 });
    await screen.findByRole("tab", { name: "Activity" });
    expect(screen.queryByRole("tab", { name: "Distribution" })).toBeNull();
    expect(screen.queryByRole("tab", { name: "Members" })).toBeNull();
  });
});
