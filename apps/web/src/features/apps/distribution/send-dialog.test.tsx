import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTab, serveDistribution } from "../../../test/app-page-api.ts";
import { makeRecipients } from "../../../test/distribution-fixtures.ts";
import { useSignedInTestSession } from "../../../test/render.tsx";
import { buildSendPayload, initialSendForm } from "./send-payload.ts";

const PREVIEW_URL =
  "/api/app-teams/1/?emulate_email=1&app2os=1%2C2&testers_id=31%2C32&emails_id=61&whats_new=Faster+launch&is_show_tutorial=1&apk_version=100";

describe("send to testers", () => {
  useSignedInTestSession();

  it("builds the spec payload: chosen platforms, their versions and the recipients", () => {
    const data = makeRecipients();
    const form = initialSendForm(data, "Notes");
    // The version the dialog was opened for is preselected on its platform only.
    expect(form.platforms).toEqual({
      1: { include: true, version: "100" },
      2: { include: true, version: "" },
    });
    form.platforms[2] = { include: true, version: "200" };
    expect(
      buildSendPayload(data, { ...form, testers: [31], users: [11], mails: [61], tutorial: true }),
    ).toEqual({
      app2os: [1, 2],
      apk_version: 100,
      ios_version: 200,
      testers_id: [31],
      users_id: [11],
      emails_id: [61],
      whats_new: "Notes",
      is_show_tutorial: true,
    });
    form.platforms[1] = { include: false, version: "100" };
    expect(buildSendPayload(data, form).app2os).toEqual([2]);
    expect(buildSendPayload(data, form).apk_version).toBeUndefined();
  });

  it("previews the mail, sends it and shows the delivery states", async () => {
    const calls = serveDistribution({
      [`GET ${PREVIEW_URL}`]: {
        status: 200,
        body: {
          subject: "Rocket 1.2.0 is ready to test",
          html: "<p>Install</p>",
          text: "Install Rocket 1.2.0 for Android: http://tarmac.test/getapp/k",
        },
      },
      "POST /api/app-teams/1/": { status: 202, body: { batch_id: "b2", recipients: 3 } },
    });
    const { user } = await openTab("Distribution");
    expect(await screen.findByText("Sent: 1")).toBeTruthy();
    expect(screen.getByText("Queued: 1")).toBeTruthy();
    expect(screen.getByText("Failed: 1")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Send to testers" }));
    const dialog = await screen.findByRole("dialog", { name: "Send to testers" });
    await within(dialog).findByText("Recipients: 0");
    expect(within(dialog).getByRole("checkbox", { name: "Android" })).toHaveProperty("checked", true);
    expect(within(dialog).getByRole("checkbox", { name: "iOS" })).toHaveProperty("checked", true);
    expect(within(dialog).getByRole("button", { name: "Send (0)" })).toHaveProperty("disabled", true);

    await user.click(within(dialog).getByRole("checkbox", { name: "QA team (2)" }));
    expect(within(dialog).getByRole("checkbox", { name: "Tina Test <tina@example.com>" })).toHaveProperty(
      "checked",
      true,
    );
    await user.click(within(dialog).getByRole("checkbox", { name: "list@example.com" }));
    await user.click(within(dialog).getByRole("switch", { name: "Add a short how-to-install guide" }));
    expect(within(dialog).getByText("Recipients: 3")).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    expect(await within(dialog).findByText("Subject: Rocket 1.2.0 is ready to test")).toBeTruthy();
    const frame = within(dialog).getByTitle("Mail preview");
    expect(frame.getAttribute("sandbox")).toBe("");
    expect(frame.getAttribute("srcdoc")).toBe("<p>Install</p>");
    // The plain-text part, as mail clients without HTML show it.
    await user.click(within(dialog).getByText("Plain text"));
    expect(
      within(dialog).getByText("Install Rocket 1.2.0 for Android: http://tarmac.test/getapp/k"),
    ).toBeTruthy();
    expect(within(dialog).queryByTitle("Mail preview")).toBeNull();
    await user.click(within(dialog).getByText("Formatted"));
    expect(within(dialog).getByTitle("Mail preview")).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Send (3)" }));
    expect(await screen.findByText("The mail is on its way to 3 recipients.")).toBeTruthy();
    const sent = calls.find((call) => call.method === "POST" && call.url === "/api/app-teams/1/");
    expect(sent?.body).toEqual({
      app2os: [1, 2],
      apk_version: 100,
      testers_id: [31, 32],
      users_id: [],
      emails_id: [61],
      whats_new: "Faster launch",
      is_show_tutorial: true,
    });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Send to testers" })).toBeNull());
  });
});
