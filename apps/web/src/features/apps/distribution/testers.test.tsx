import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTab, serveDistribution } from "../../../test/app-page-api.ts";
import { makeTester } from "../../../test/distribution-fixtures.ts";
import { pickOption } from "../../../test/mantine-actions.ts";
import { useSignedInTestSession } from "../../../test/render.tsx";

describe("testers, groups and app mails on the Distribution tab", () => {
  useSignedInTestSession();

  it("lists testers with their groups, adds one into a group and removes one", async () => {
    const calls = serveDistribution({
      "POST /api/testers/": { status: 201, body: makeTester({ id: 34, email: "new@example.com" }) },
      "DELETE /api/testers/31/": { status: 204, body: null },
    });
    const { user } = await openTab("Distribution");
    const row = (await screen.findByRole("cell", { name: "tina@example.com" })).closest("tr") as HTMLElement;
    expect(within(row).getByText("Tina Test")).toBeTruthy();
    expect(within(row).getByText("QA team")).toBeTruthy();

    const form = screen.getByRole("form", { name: "Add tester" });
    await user.type(within(form).getByRole("textbox", { name: /E-mail/ }), "new@example.com");
    await pickOption(user, within(form).getByLabelText("Groups"), "QA team");
    await user.click(within(form).getByRole("button", { name: "Add tester" }));
    expect(await screen.findByText("The tester has been saved.")).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      email: "new@example.com",
      app: 1,
      groups: [51],
    });

    await user.click(within(row).getByRole("button", { name: "Remove tina@example.com" }));
    const confirm = await screen.findByRole("dialog", { name: "Remove tester" });
    await user.click(within(confirm).getByRole("button", { name: "Remove tester" }));
    expect(await screen.findByText("The tester has been removed.")).toBeTruthy();
    expect(calls.some((call) => call.method === "DELETE" && call.url === "/api/testers/31/")).toBe(true);
  });

  it("filters testers by group through ?groups=", async () => {
    const calls = serveDistribution({
      "GET /api/testers/?groups=51&page=1&page_size=20": {
        status: 200,
        body: { count: 0, next: null, previous: null, results: [] },
      },
    });
    const { user } = await openTab("Distribution");
    await screen.findByRole("cell", { name: "tina@example.com" });
    await pickOption(user, screen.getByRole("combobox", { name: "Show" }), "QA team");
    expect(await screen.findByText("No testers yet.")).toBeTruthy();
    expect(calls.some((call) => call.url === "/api/testers/?groups=51&page=1&page_size=20")).toBe(true);
  });

  it("lists every rejected CSV line with its number, then imports a good file", async () => {
    let attempt = 0;
    const calls = serveDistribution({
      "POST /api/upload-csv-app-group/": () => {
        attempt += 1;
        return attempt === 1
          ? {
              status: 400,
              body: {
                errors: [
                  { line: 2, message: "Enter a valid e-mail address." },
                  { line: 5, message: "Too many columns." },
                ],
              },
            }
          : { status: 200, body: { created: 3, updated: 1, duplicates: [4] } };
      },
    });
    const { user } = await openTab("Distribution");
    await screen.findByRole("cell", { name: "tina@example.com" });
    await user.click(screen.getByRole("button", { name: "Import CSV" }));
    const dialog = await screen.findByRole("dialog", { name: "Import CSV" });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(["a@b.c\nbad\n"], "testers.csv", { type: "text/csv" }));
    await user.click(within(dialog).getByRole("button", { name: "Import" }));
    expect(await within(dialog).findByText("Nothing was imported. Lines to fix: 2")).toBeTruthy();
    const rows = within(dialog)
      .getAllByRole("row")
      .map((row) => row.textContent);
    expect(rows).toEqual(["LineProblem", "2Enter a valid e-mail address.", "5Too many columns."]);
    const sent = calls.find((call) => call.method === "POST")?.body as FormData;
    expect(sent.get("app")).toBe("1");
    expect(sent.get("group")).toBe("51");
    expect((sent.get("csv") as File).name).toBe("testers.csv");

    await user.click(within(dialog).getByRole("button", { name: "Import" }));
    expect(await within(dialog).findByText("New testers: 3. Updated: 1.")).toBeTruthy();
    expect(within(dialog).getByText("Repeated addresses skipped on lines: 4.")).toBeTruthy();
  });

  it("creates and deletes groups and manages app mail addresses", async () => {
    const calls = serveDistribution({
      "POST /api/group-testers/": { status: 201, body: { id: 52, app: 1, title: "Beta", testers_count: 0 } },
      "DELETE /api/group-testers/51/": { status: 204, body: null },
      "POST /api/app-mails/": {
        status: 201,
        body: { id: 62, app: 1, email: "pm@example.com", created_at: "" },
      },
    });
    const { user } = await openTab("Distribution");
    const group = await screen.findByRole("region", { name: "QA team" });
    expect(within(group).getByText("Testers: 1")).toBeTruthy();
    expect(await within(group).findByText("tina@example.com")).toBeTruthy();

    const createForm = screen.getByRole("form", { name: "Create group" });
    await user.type(within(createForm).getByRole("textbox", { name: /Group name/ }), "Beta");
    await user.click(within(createForm).getByRole("button", { name: "Create group" }));
    await waitFor(() =>
      expect(
        calls.find((call) => call.url === "/api/group-testers/" && call.method === "POST")?.body,
      ).toEqual({
        app: 1,
        title: "Beta",
      }),
    );

    await user.click(within(group).getByRole("button", { name: "Delete group QA team" }));
    const confirm = await screen.findByRole("dialog", { name: "Delete group" });
    await user.click(within(confirm).getByRole("button", { name: "Delete group" }));
    await waitFor(() => expect(calls.some((call) => call.url === "/api/group-testers/51/")).toBe(true));

    const mailForm = screen.getByRole("form", { name: "Add address" });
    await user.type(within(mailForm).getByRole("textbox", { name: /E-mail/ }), "pm@example.com");
    await user.click(within(mailForm).getByRole("button", { name: "Add address" }));
    await waitFor(() =>
      expect(calls.find((call) => call.url === "/api/app-mails/" && call.method === "POST")?.body).toEqual({
        app: 1,
        email: "pm@example.com",
      }),
    );
  });
});
