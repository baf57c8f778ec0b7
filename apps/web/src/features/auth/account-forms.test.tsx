import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getToken } from "../../api/client.ts";
import { jsonResponse, renderApp, stubApi } from "../../test/render.tsx";

interface Call {
  method: string;
  url: string;
  body: unknown;
}

function stubServer(status: number, body: unknown): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      // The sign-up page also reads the editors' sign-up texts; the forms' own calls are counted.
      if (url.startsWith("/api/reg/")) return jsonResponse(404, { detail: "Not found." });
      calls.push({
        method: init.method ?? "GET",
        url,
        body: init.body ? JSON.parse(String(init.body)) : null,
      });
      return jsonResponse(status, body);
    }),
  );
  return calls;
}

describe("account forms", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("signup posts the four fields and shows the server's per-field errors", async () => {
    const calls = stubServer(400, {
      email: ["A user with this email already exists."],
      password: ["Too short."],
    });
    const user = userEvent.setup();
    renderApp("/signup");
    await screen.findByRole("heading", { name: "Create your account" });
    await user.type(screen.getByLabelText(/^First name/), " Ann ");
    await user.type(screen.getByLabelText(/^Last name/), "Lee");
    await user.type(screen.getByLabelText(/^Email/), "ann@example.com");
    await user.type(screen.getByLabelText(/^Password/), "short");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("A user with this email already exists.")).toBeTruthy();
    expect(screen.getByText("Too short.")).toBeTruthy();
    expect(calls).toEqual([
      {
        method: "POST",
        url: "/api/user/register/",
        body: { email: "ann@example.com", password: "short", first_name: "Ann", last_name: "Lee" },
      },
    ]);
  });

  it("signup stores the token, asks to check the e-mail, then offers the dashboard", async () => {
    stubServer(201, { token: "new-user-token" });
    const user = userEvent.setup();
    const { router } = renderApp("/signup");
    await screen.findByRole("heading", { name: "Create your account" });
    expect(screen.getByText(/^At least 10 characters/)).toBeTruthy();
    await user.type(screen.getByLabelText(/^First name/), "Ann");
    await user.type(screen.getByLabelText(/^Last name/), "Lee");
    await user.type(screen.getByLabelText(/^Email/), "ann@example.com");
    await user.type(screen.getByLabelText(/^Password/), "long-enough-pass");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByRole("heading", { name: "Check your e-mail" })).toBeTruthy();
    expect(
      screen.getByText(
        "Almost done! We sent an activation link to ann@example.com. Open it to activate your account.",
      ),
    ).toBeTruthy();
    expect(getToken()).toBe("new-user-token");
    await user.click(screen.getByRole("button", { name: "Go to the dashboard" }));
    await screen.findByRole("heading", { name: "Dashboard" });
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  it("reset posts the e-mail and confirms without telling whether the account exists", async () => {
    const calls = stubServer(200, {});
    const user = userEvent.setup();
    renderApp("/reset");
    await screen.findByRole("heading", { name: "Reset your password" });
    await user.type(screen.getByLabelText(/^Email/), "ann@example.com");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(
      await screen.findByText(
        "If an account exists for ann@example.com, a link to reset the password is on its way.",
      ),
    ).toBeTruthy();
    expect(calls).toEqual([
      { method: "POST", url: "/api/user/password/update/", body: { email: "ann@example.com" } },
    ]);
  });

  it("update-password takes the code from the link, refuses differing passwords and can revoke API keys", async () => {
    const calls = stubServer(200, {});
    const user = userEvent.setup();
    renderApp("/update-password?code=XYZ-123");
    await screen.findByRole("heading", { name: "Choose a new password" });
    expect(screen.queryByLabelText(/^Reset code/)).toBeNull();
    await user.type(screen.getByLabelText(/^New password/), "first-choice-1");
    await user.type(screen.getByLabelText(/^Repeat the new password/), "first-choice-2");
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(await screen.findByText("The passwords do not match.")).toBeTruthy();
    expect(calls).toEqual([]);

    await user.clear(screen.getByLabelText(/^Repeat the new password/));
    await user.type(screen.getByLabelText(/^Repeat the new password/), "first-choice-1");
    await user.click(screen.getByRole("checkbox", { name: /Also revoke my API keys/ }));
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(
      await screen.findByText("Your password has been changed. You can now log in with it."),
    ).toBeTruthy();
    expect(calls).toEqual([
      {
        method: "POST",
        url: "/api/user/password/update/",
        body: { code: "XYZ-123", password: "first-choice-1", revoke_api_keys: true },
      },
    ]);
  });

  it("activate/:code checks the link, posts after the user confirms and shows the server's detail", async () => {
    const calls = stubApi({
      "GET /api/user/activate/abc%2F1/": {
        status: 200,
        body: {
          email: "ann@example.com",
          kind: "activation",
          requires_password: false,
          first_name: "",
          last_name: "",
        },
      },
      "POST /api/user/activate/abc%2F1/": {
        status: 400,
        body: { detail: "This activation link has expired." },
      },
    });
    const user = userEvent.setup();
    renderApp("/activate/abc%2F1");
    expect(await screen.findByText("Confirm to activate the Tarmac account ann@example.com.")).toBeTruthy();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    await user.click(screen.getByRole("button", { name: "Activate my account" }));
    expect(await screen.findByText("This activation link has expired.")).toBeTruthy();
    expect(calls).toEqual([
      { method: "GET", url: "/api/user/activate/abc%2F1/", body: null },
      { method: "POST", url: "/api/user/activate/abc%2F1/", body: null },
    ]);
  });

  it("activate/:code of an invitation asks for names and a password and signs in", async () => {
    const calls = stubApi({
      "GET /api/user/activate/inv/": {
        status: 200,
        body: {
          email: "bob@example.com",
          kind: "invitation",
          requires_password: true,
          first_name: "Bob",
          last_name: "",
        },
      },
      "POST /api/user/activate/inv/": { status: 200, body: { token: "invited-token" } },
    });
    const user = userEvent.setup();
    const { router } = renderApp("/activate/inv");
    await screen.findByRole("heading", { name: "Accept your invitation" });
    // The names the inviter typed are there already.
    expect((screen.getByLabelText(/^First name/) as HTMLInputElement).value).toBe("Bob");
    await user.type(screen.getByLabelText(/^Last name/), "Roe");
    await user.type(screen.getByLabelText(/^Password/), "a-long-passphrase");
    await user.click(screen.getByRole("button", { name: "Accept invitation" }));
    expect(await screen.findByText("Your account is active. Opening your dashboard…")).toBeTruthy();
    expect(getToken()).toBe("invited-token");
    expect(screen.getByRole("link", { name: "Go to the dashboard" }).getAttribute("href")).toBe("/dashboard");
    // Signed in by the activation: the dashboard opens by itself, no second click.
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"), { timeout: 5000 });
    expect(calls[1]).toEqual({
      method: "POST",
      url: "/api/user/activate/inv/",
      body: { password: "a-long-passphrase", first_name: "Bob", last_name: "Roe" },
    });
  });

  it("activate/:code explains an unknown or expired link", async () => {
    stubApi({});
    renderApp("/activate/gone");
    expect(
      await screen.findByText("This link is not valid or has expired. Request a new one below."),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Activate my account" })).toBeNull();
  });

  it("activate/:code offers the login after success", async () => {
    stubApi({
      "GET /api/user/activate/abc/": {
        status: 200,
        body: {
          email: "ann@example.com",
          kind: "activation",
          requires_password: false,
          first_name: "",
          last_name: "",
        },
      },
      "POST /api/user/activate/abc/": { status: 200, body: { detail: "Activated." } },
    });
    const user = userEvent.setup();
    renderApp("/activate/abc");
    await user.click(await screen.findByRole("button", { name: "Activate my account" }));
    expect(await screen.findByText("Your account is active.")).toBeTruthy();
    expect(
      screen.getAllByRole("link", { name: "Log in" }).map((link) => link.getAttribute("href")),
    ).toContain("/login");
  });
});
