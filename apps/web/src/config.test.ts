import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "./config.ts";

function injectConfig(text: string): void {
  const script = document.createElement("script");
  script.id = "tarmac-config";
  script.type = "application/json";
  script.textContent = text;
  document.head.appendChild(script);
}

describe("runtime configuration", () => {
  afterEach(() => {
    document.getElementById("tarmac-config")?.remove();
  });

  it("reads the JSON the server injects", () => {
    injectConfig(
      '{"gtm_container_id":"GTM-AB12","cookie_domain":"example.com","public_url":"https://apps.example.com"}',
    );
    expect(readConfig(document)).toEqual({
      gtm_container_id: "GTM-AB12",
      cookie_domain: "example.com",
      public_url: "https://apps.example.com",
    });
  });

  it("falls back to defaults when the config is absent or unparsable", () => {
    const defaults = { gtm_container_id: null, cookie_domain: "", public_url: window.location.origin };
    expect(readConfig(document)).toEqual(defaults);
    injectConfig("<!--tarmac-config-->{");
    expect(readConfig(document)).toEqual(defaults);
  });

  it("treats null and empty values as not set", () => {
    injectConfig('{"gtm_container_id":null,"cookie_domain":"","public_url":""}');
    expect(readConfig(document)).toEqual({
      gtm_container_id: null,
      cookie_domain: "",
      public_url: window.location.origin,
    });
  });
});
