import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OrgData } from "../../api/account.ts";
import { makeOrg } from "../../test/account-fixtures.ts";
import { makeUsage } from "../../test/plan-fixtures.ts";
import { type ApiCall, type ApiReply, renderWithProviders, stubApi } from "../../test/render.tsx";
import { AddUserDialog } from "./add-user-dialog.tsx";

const TEAMS_URL = "GET /api/orgs-teams/?org=7&page_size=100";
const TEAMS = {
  count: 1,
  next: null,
  previous: null,
  results: [{ id: 3, title: "QA", organization: 7, users: [] }],
};
const BOB = { id: 42, email: "bob@example.com", first_name: "Bob", last_name: "", role: 3 };

function Harness({ org, onCreated }: { org: OrgData; onCreated: () => void }) {
  const [opened, setOpened] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpened(true)}>
        reopen
      </button>
      <AddUserDialog opened={opened} org={org} onClose={() => setOpened(false)} onCreated={onCreated} />
    </>
  );
}

function serve(extra: Record<string, ApiReply | (() => ApiReply)> = {}) {
  return stubApi({ [TEAMS_URL]: { status: 200, body: TEAMS }, ...extra });
}

function renderDialog(org: OrgData = makeOrg()) {
  const onCreated = vi.fn();
  renderWithProviders(<Harness org={org} onCreated={onCreated} />);
  return onCreated;
}

const emailInput = () => screen.getByLabelText(/^Email/) as HTMLInputElement;
const roleSelect = () => screen.getByLabelText("Role") as HTMLSelectElement;
const addButton = () => screen.getByRole("button", { name: "Add user" });
const posts = (calls: ApiCall[]) => calls.filter((call) => call.method === "POST");
const INVITED = "The invitation has been sent. The person joins the organization once they accept it.";

describe("add-user dialog", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("opens with admin preselected, the three roles offered, no selections and no limit notice", async () => {
    serve();
    renderDialog();
    expect(await screen.findByRole("dialog", { name: "Add user" })).toBeTruthy();
    expect(roleSelect().value).toBe("2");
    expect([...roleSelect().options].map((option) => [option.value, option.text])).toEqual([
      ["", "Choose a role"],
      ["2", "Admin"],
      ["3", "Mobile user"],
      ["5", "Tester"],
    ]);
    expect(
      screen.getByText("Manages the organization: apps, builds, staff, teams and settings."),
    ).toBeTruthy();
    // Projects answer 404 on this server for now: the field is empty and says so.
    expect(await screen.findByPlaceholderText("No projects yet")).toBeTruthy();
    expect(screen.queryByText(/reached its user limit/)).toBeNull();
    expect(addButton().hasAttribute("disabled")).toBe(false);
  });

  it("checks the limit on opening: users_count at a non-zero user_limit blocks adding, naming whom to ask", async () => {
    serve({ "GET /api/organization/usage/?org=7": { status: 200, body: makeUsage() } });
    renderDialog(makeOrg({ users_count: 10, user_limit: 10 }));
    expect(
      await screen.findByText(
        "This organization has reached its user limit. Ask the administrator of this Tarmac instance (root@tarmac.test) to raise the limit.",
      ),
    ).toBeTruthy();
    expect(addButton().hasAttribute("disabled")).toBe(true);
  });

  it("treats a zero user_limit as unlimited", async () => {
    serve();
    renderDialog(makeOrg({ users_count: 500, user_limit: 0 }));
    await screen.findByRole("dialog", { name: "Add user" });
    expect(screen.queryByText(/reached its user limit/)).toBeNull();
  });

  it("searches the lower-cased e-mail after a 1500 ms pause, fills an exact match and locks its name", async () => {
    const calls = serve({
      "GET /api/orgs-users/?org=7&search=bob%40example.com": {
        status: 200,
        body: { count: 1, next: null, previous: null, results: [BOB] },
      },
    });
    renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    vi.useFakeTimers();
    fireEvent.change(emailInput(), { target: { value: "Bob@" } });
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.change(emailInput(), { target: { value: "Bob@Example.COM" } });
    act(() => vi.advanceTimersByTime(1499));
    const searches = () => calls.filter((call) => call.url.startsWith("/api/orgs-users/"));
    expect(searches()).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(searches().map((call) => call.url)).toEqual(["/api/orgs-users/?org=7&search=bob%40example.com"]);
    await act(() => vi.advanceTimersByTimeAsync(100));
    vi.useRealTimers();

    const firstName = (await screen.findByDisplayValue("Bob")) as HTMLInputElement;
    expect(firstName.readOnly).toBe(true);
    expect((screen.getByLabelText("Last name") as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText("This person already has a Tarmac account.")).toBeTruthy();
  });

  it("sends the chosen role and the matched user, then closes, announces, refreshes and clears", async () => {
    const calls = serve({
      "GET /api/orgs-users/?org=7&search=bob%40example.com": {
        status: 200,
        body: { count: 1, next: null, previous: null, results: [BOB] },
      },
      "POST /api/usersinorgs/": { status: 201, body: { id: 99 } },
    });
    const user = userEvent.setup();
    const onCreated = renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "bob@example.com");
    await screen.findByDisplayValue("Bob", undefined, { timeout: 3000 });
    await user.selectOptions(roleSelect(), "5");
    await user.click(addButton());
    expect(await screen.findByText(INVITED)).toBeTruthy();
    expect(posts(calls).map((call) => call.body)).toEqual([
      {
        userid: "bob@example.com",
        organization: 7,
        role: 5,
        teams: [],
        projects: [],
        first_name: "Bob",
        last_name: "",
      },
    ]);
    expect(onCreated).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    await user.click(screen.getByRole("button", { name: "reopen" }));
    await screen.findByRole("dialog", { name: "Add user" });
    expect(emailInput().value).toBe("");
    expect(roleSelect().value).toBe("2");
    expect((screen.getByLabelText("First name") as HTMLInputElement).value).toBe("");
  }, 10_000);

  it("invites an unknown address by its lower-cased e-mail with editable names", async () => {
    const calls = serve({
      "GET /api/orgs-users/?org=7&search=new%40example.com": {
        status: 200,
        body: { count: 0, next: null, previous: null, results: [] },
      },
      "POST /api/usersinorgs/": { status: 201, body: { id: 100 } },
    });
    const user = userEvent.setup();
    renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "New@Example.com");
    await user.type(screen.getByLabelText("First name"), "Nia");
    expect((screen.getByLabelText("First name") as HTMLInputElement).readOnly).toBe(false);
    await user.selectOptions(roleSelect(), "3");
    await user.click(addButton());
    await screen.findByText(INVITED);
    expect(posts(calls).map((call) => call.body)).toEqual([
      {
        userid: "new@example.com",
        organization: 7,
        role: 3,
        teams: [],
        projects: [],
        first_name: "Nia",
        last_name: "",
      },
    ]);
  });

  it("forgets a matched user as soon as the address changes, before the next search", async () => {
    const calls = serve({
      "GET /api/orgs-users/?org=7&search=bob%40example.com": {
        status: 200,
        body: { count: 1, next: null, previous: null, results: [BOB] },
      },
      "POST /api/usersinorgs/": { status: 201, body: { id: 101 } },
    });
    const user = userEvent.setup();
    renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "bob@example.com");
    await screen.findByDisplayValue("Bob", undefined, { timeout: 3000 });
    await user.clear(emailInput());
    await user.type(emailInput(), "carol@example.com");
    expect(screen.queryByText("This person already has a Tarmac account.")).toBeNull();
    const firstName = screen.getByLabelText("First name") as HTMLInputElement;
    expect([firstName.value, firstName.readOnly]).toEqual(["", false]);
    await user.click(addButton());
    await screen.findByText(INVITED);
    expect(posts(calls).map((call) => call.body)).toEqual([
      {
        userid: "carol@example.com",
        organization: 7,
        role: 2,
        teams: [],
        projects: [],
        first_name: "",
        last_name: "",
      },
    ]);
  }, 10_000);

  it("sends nothing without a role", async () => {
    const calls = serve();
    const user = userEvent.setup();
    renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "x@example.com");
    await user.selectOptions(roleSelect(), "");
    await user.click(addButton());
    expect(await screen.findByText("Choose a role.")).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it("marks adding as not allowed when the server answers user_limit_reached", async () => {
    serve({
      "GET /api/organization/usage/?org=7": {
        status: 200,
        body: makeUsage({ limits_managed_by: "billing", administrator_email: null }),
      },
      "POST /api/usersinorgs/": {
        status: 400,
        body: { error_code: "user_limit_reached", detail: "The organization has reached its user limit." },
      },
    });
    const user = userEvent.setup();
    renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "x@example.com");
    await user.click(addButton());
    expect(
      await screen.findByText(
        "This organization has reached its user limit. Upgrade the plan on the Plan and usage page to raise the limit.",
      ),
    ).toBeTruthy();
    expect(addButton().hasAttribute("disabled")).toBe(true);
  });

  it("says plainly when the address was invited too often", async () => {
    serve({
      "POST /api/usersinorgs/": {
        status: 429,
        body: { detail: "Too many requests. Try again in 1 minute." },
      },
    });
    const user = userEvent.setup();
    const onCreated = renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "x@example.com");
    await user.click(addButton());
    expect(await screen.findByText(/This address has been invited too often\. Wait a while/)).toBeTruthy();
    expect(onCreated).not.toHaveBeenCalled();
    expect(addButton().hasAttribute("disabled")).toBe(false);
  });

  it("shows other 400 bodies beside their fields", async () => {
    serve({
      "POST /api/usersinorgs/": {
        status: 400,
        body: { userid: ["This user is already a member."], last_name: ["Too long."] },
      },
    });
    const user = userEvent.setup();
    renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "x@example.com");
    await user.click(addButton());
    const message = await screen.findByText("This user is already a member.");
    expect(emailInput().getAttribute("aria-describedby")).toContain(message.id);
    expect(screen.getByText("Too long.")).toBeTruthy();
    expect(addButton().hasAttribute("disabled")).toBe(false);
  });

  it("shows SERVER ERROR for any other status", async () => {
    serve({ "POST /api/usersinorgs/": { status: 500, body: { detail: "boom" } } });
    const user = userEvent.setup();
    renderDialog();
    await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "x@example.com");
    await user.click(addButton());
    expect(await screen.findByText("Server error")).toBeTruthy();
    expect(screen.queryByText("boom")).toBeNull();
  });

  it("is busy while creating and ignores a second submission", async () => {
    let release: (reply: ApiReply) => void = () => {};
    const pending = new Promise<ApiReply>((resolve) => {
      release = resolve;
    });
    const calls = serve();
    const base = globalThis.fetch;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (init.method === "POST") {
          calls.push({ method: "POST", url, body: JSON.parse(String(init.body)) });
          const reply = await pending;
          return new Response(JSON.stringify(reply.body), { status: reply.status });
        }
        return base(url, init);
      }),
    );
    const user = userEvent.setup();
    renderDialog();
    const dialog = await screen.findByRole("dialog", { name: "Add user" });
    await user.type(emailInput(), "x@example.com");
    await user.click(addButton());
    await waitFor(() => expect(dialog.querySelector("form")?.getAttribute("aria-busy")).toBe("true"));
    expect(addButton().getAttribute("data-loading")).toBe("true");
    fireEvent.submit(dialog.querySelector("form") as HTMLFormElement);
    expect(posts(calls)).toHaveLength(1);
    await act(async () => release({ status: 201, body: { id: 5 } }));
    expect(await screen.findByText(INVITED)).toBeTruthy();
  });
});
