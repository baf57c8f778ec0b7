import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getToken, setToken } from "../../api/client.ts";
import { jsonResponse, renderApp } from "../../test/render.tsx";

type Reply = { status: number; body: unknown };

/** Answers POST /api/user/login/ with the queued replies, in order, and records the bodies. */
function stubLogin(replies: Reply[]): unknown[] {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      // The address's organization is asked about single sign-on when the field is left.
      if (url.startsWith("/api/check_sso/")) return jsonResponse(200, { sso: false });
      if (!url.startsWith("/api/user/login/") || init.method !== "POST")
        throw new Error(`unexpected ${init.method} ${url}`);
      bodies.push(JSON.parse(String(init.body)));
      const reply = replies.shift();
      if (!reply) throw new Error("no reply queued");
      return jsonResponse(reply.status, reply.body);
    }),
  );
  return bodies;
}

async function fillCredentials(email: string, password: string) {
  const user = userEvent.setup();
  await screen.findByRole("heading", { name: "Log in" });
  await user.type(screen.getByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole("button", { name: "Log in" }));
  return user;
}

describe("login page", () => {
  it("offers the organization's single sign-on once the address is typed", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) =>
        url === "/api/check_sso/dana%40acme.test/"
          ? jsonResponse(200, {
              sso: true,
              organization: "acme",
              method: "oidc",
              login_url: "/api/sso/acme/start/",
            })
          : jsonResponse(404, { detail: "Not found." }),
      ),
    );
    renderApp("/login?next=%2Fdashboard%2Fapps");
    const user = userEvent.setup();
    await screen.findByRole("heading", { name: "Log in" });
    await user.type(screen.getByLabelText(/^Email/), "dana@acme.test");
    await user.tab();
    const offer = await screen.findByRole("link", { name: "Continue with your organization's sign-in" });
    expect(offer.getAttribute("href")).toBe(
      "/api/sso/acme/start/?next=%2Fdashboard%2Fapps&login_hint=dana%40acme.test",
    );
  });

  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("stores the token from the reply and opens the dashboard", async () => {
    const bodies = stubLogin([{ status: 200, body: { token: "tok-1" } }]);
    const { router } = renderApp("/login");
    await fillCredentials("ann@example.com", "s3cret-pass");
    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(getToken()).toBe("tok-1");
    expect(bodies).toEqual([{ email: "ann@example.com", password: "s3cret-pass" }]);
  });

  it("returns to the page that sent the person to sign in, never to another site", async () => {
    // Sign-in answers a token; whatever the next page asks for afterwards is not found.
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url.startsWith("/api/check_sso/")) return jsonResponse(200, { sso: false });
        return url.startsWith("/api/user/login/")
          ? jsonResponse(200, { token: "tok-2" })
          : jsonResponse(404, { detail: "Not found." });
      }),
    );
    const first = renderApp("/login?next=%2Fgetapp%2Fk1");
    await fillCredentials("ann@example.com", "s3cret-pass");
    await vi.waitFor(() => expect(first.router.state.location.pathname).toBe("/getapp/k1"));
    first.unmount();
    const second = renderApp("/login?next=%2F%2Fevil.example%2F");
    await fillCredentials("ann@example.com", "s3cret-pass");
    await vi.waitFor(() => expect(second.router.state.location.pathname).toBe("/dashboard"));
  });

  it("clears an earlier session before logging in", async () => {
    setToken("old-token");
    stubLogin([{ status: 400, body: { detail: "Unable to log in with provided credentials." } }]);
    renderApp("/login");
    await fillCredentials("ann@example.com", "wrong");
    await screen.findByText("Unable to log in with provided credentials.");
    expect(getToken()).toBeNull();
  });

  it("signs mobile users and testers in to the Install apps area", async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url.startsWith("/api/check_sso/")) return jsonResponse(200, { sso: false });
        urls.push(url);
        if (url === "/api/user/login/")
          return jsonResponse(200, { mobile_only: true, token: "must-not-stay" });
        if (url === "/api/user/login/?m=1") return jsonResponse(200, { token: "tok-mobile" });
        return jsonResponse(200, []);
      }),
    );
    const { router } = renderApp("/login");
    await fillCredentials("tester@example.com", "s3cret-pass");
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/m"));
    expect(getToken()).toBe("tok-mobile");
    expect(urls.slice(0, 2)).toEqual(["/api/user/login/", "/api/user/login/?m=1"]);
  });

  it("asks for the second factor and sends it with the credentials", async () => {
    const bodies = stubLogin([
      { status: 200, body: { two_factor_required: true } },
      { status: 200, body: { token: "tok-2fa" } },
    ]);
    const { router } = renderApp("/login");
    const user = await fillCredentials("ann@example.com", "s3cret-pass");
    const otp = await screen.findByLabelText(/^Verification code/);
    await user.type(otp, "123456");
    await user.click(screen.getByRole("button", { name: "Verify and log in" }));
    await screen.findByRole("heading", { name: "Dashboard" });
    expect(bodies).toEqual([
      { email: "ann@example.com", password: "s3cret-pass" },
      { email: "ann@example.com", password: "s3cret-pass", otp: "123456" },
    ]);
    expect(getToken()).toBe("tok-2fa");
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  it("keeps the second-factor step on a wrong code and accepts a recovery code instead", async () => {
    const bodies = stubLogin([
      { status: 200, body: { two_factor_required: true } },
      { status: 400, body: { otp: ["Invalid code."] } },
      { status: 200, body: { token: "tok-recovery" } },
    ]);
    renderApp("/login");
    const user = await fillCredentials("ann@example.com", "s3cret-pass");
    await user.type(await screen.findByLabelText(/^Verification code/), "000000");
    await user.click(screen.getByRole("button", { name: "Verify and log in" }));
    expect(await screen.findByText("Invalid code.")).toBeTruthy();
    const otp = screen.getByLabelText(/^Verification code/);
    await user.clear(otp);
    await user.type(otp, " rc-7f3a-91bd ");
    await user.click(screen.getByRole("button", { name: "Verify and log in" }));
    await screen.findByRole("heading", { name: "Dashboard" });
    expect(bodies.slice(1)).toEqual([
      { email: "ann@example.com", password: "s3cret-pass", otp: "000000" },
      { email: "ann@example.com", password: "s3cret-pass", otp: "rc-7f3a-91bd" },
    ]);
    expect(getToken()).toBe("tok-recovery");
  });

  it("signs a mobile-only account with a second factor in to Install apps, code and all", async () => {
    const bodies = stubLogin([
      { status: 200, body: { two_factor_required: true } },
      { status: 200, body: { mobile_only: true } },
      { status: 200, body: { token: "tok-m" } },
    ]);
    const { router } = renderApp("/login");
    const user = await fillCredentials("tester@example.com", "s3cret-pass");
    await user.type(await screen.findByLabelText(/^Verification code/), "123456");
    await user.click(screen.getByRole("button", { name: "Verify and log in" }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/m"));
    expect(getToken()).toBe("tok-m");
    expect(bodies.at(-1)).toEqual({ email: "tester@example.com", password: "s3cret-pass", otp: "123456" });
  });

  it("shows the lock-out message of a throttled login", async () => {
    stubLogin([{ status: 429, body: { detail: "Too many failed attempts. Try again in 15 minutes." } }]);
    renderApp("/login");
    await fillCredentials("ann@example.com", "guess");
    expect(await screen.findByText("Too many failed attempts. Try again in 15 minutes.")).toBeTruthy();
  });

  it("shows the server's field errors beside their fields and other errors in the alert", async () => {
    stubLogin([
      {
        status: 400,
        body: { email: ["Enter a valid email address."], non_field_errors: ["Account locked."] },
      },
    ]);
    renderApp("/login");
    await fillCredentials("ann@example.com", "x");
    const message = await screen.findByText("Enter a valid email address.");
    const emailInput = screen.getByLabelText(/^Email/);
    expect(emailInput.getAttribute("aria-invalid")).toBe("true");
    expect(emailInput.getAttribute("aria-describedby")).toContain(message.id);
    expect(screen.getByRole("alert").textContent).toContain("Account locked.");
  });

  it("links to signup and password reset, and labels the language switcher", async () => {
    renderApp("/login");
    await screen.findByRole("heading", { name: "Log in" });
    expect(screen.getByRole("link", { name: "Sign up" }).getAttribute("href")).toBe("/signup");
    expect(screen.getByRole("link", { name: "Forgot your password?" }).getAttribute("href")).toBe("/reset");
    const select = screen.getByRole("combobox", { name: "Language" });
    expect([...(select as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      "English",
      "Deutsch",
      "Русский",
    ]);
    expect(document.title).toBe("Log in · Tarmac");
  });
});
