// Test environment: English translations loaded synchronously, and the browser APIs that jsdom
// lacks but Mantine reads.
import { cleanup, configure } from "@testing-library/react";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { afterEach, beforeEach, vi } from "vitest";
import en from "../../public/media/i18n/en.json" with { type: "json" };
import { clearToken } from "../api/token.ts";
import { setTestCookie } from "./cookies.ts";

// The suite shares two cores with the server tests; a first render can take seconds there, so
// waits give up after 5 s instead of 1 s. A passing wait still returns as soon as it passes.
configure({ asyncUtilTimeout: 5000 });

if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom has no layout, so scrolling (ScrollRestoration) has nothing to do.
window.scrollTo = () => {};
// Mantine's comboboxes scroll the active option into view; there is nothing to scroll either.
Element.prototype.scrollIntoView ??= () => {};

if (!("ResizeObserver" in window)) {
  class NoopResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver: NoopResizeObserver });
}

await i18next.use(initReactI18next).init({
  lng: "en",
  fallbackLng: "en",
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
});

function clearCookies(): void {
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0]?.trim();
    if (name) setTestCookie(name, "", 0);
  }
}

beforeEach(() => {
  clearCookies();
  clearToken();
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
