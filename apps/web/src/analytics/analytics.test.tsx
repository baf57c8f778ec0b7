import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderApp } from "../test/render.tsx";
import { pushPageView } from "./page-view.ts";
import { installTagManager } from "./tag-manager.ts";

describe("page views", () => {
  beforeEach(() => {
    window.dataLayer = [];
  });

  afterEach(() => {
    delete window.dataLayer;
    document.getElementById("tarmac-gtm")?.remove();
  });

  it("pushes a page_view event with path and title", () => {
    pushPageView("/pricing", "Pricing · Tarmac");
    expect(window.dataLayer).toEqual([
      { event: "page_view", page_path: "/pricing", page_title: "Pricing · Tarmac" },
    ]);
  });

  it("reports every navigation, after the page has set its title", async () => {
    const { router } = renderApp("/login");
    await screen.findByRole("heading", { name: "Log in" });
    await router.navigate("/not-found");
    await screen.findByRole("heading", { name: "Page not found" });
    expect(window.dataLayer).toEqual([
      { event: "page_view", page_path: "/login", page_title: "Log in · Tarmac" },
      { event: "page_view", page_path: "/not-found", page_title: "Page not found · Tarmac" },
    ]);
  });

  it("loads the tag manager only when a container id is configured", () => {
    expect(installTagManager(null)).toBe(false);
    expect(installTagManager('GTM-X"><script>')).toBe(false);
    expect(document.querySelectorAll("script")).toHaveLength(0);

    expect(installTagManager("GTM-AB12CD")).toBe(true);
    const script = document.getElementById("tarmac-gtm") as HTMLScriptElement;
    expect(script.src).toBe("https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD");
    expect(script.async).toBe(true);
    expect(window.dataLayer?.[0]).toMatchObject({ event: "gtm.js" });
  });
});
