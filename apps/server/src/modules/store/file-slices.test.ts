import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { compareBuildNumbers } from "./file-slices.ts";

describe("build numbers", () => {
  it.each([
    ["10", "9", 1],
    ["1.10", "1.9", 1],
    ["1.2", "1.2.0", 0],
    ["41", "42", -1],
    ["2.0.1", "2.0", 1],
  ])("%s against %s is %i", (a, b, order) => {
    expect(compareBuildNumbers(a, b)).toBe(order);
  });
});

describe("store URLs", () => {
  const base = { DATA_DIR: "/tmp/tarmac-config-check", SECRET_KEY: "k".repeat(40) };

  it("default to the stores' own hosts", () => {
    const config = loadConfig(base);
    expect(config.APP_STORE_CONNECT_API_URL).toBe("https://api.appstoreconnect.apple.com");
    expect(config.GOOGLE_OAUTH_TOKEN_URL).toBe("https://oauth2.googleapis.com/token");
    expect(config.GOOGLE_PLAY_API_URL).toBe("https://androidpublisher.googleapis.com");
  });

  it("refuse loopback and private addresses unless private targets are allowed", () => {
    expect(() => loadConfig({ ...base, APP_STORE_CONNECT_API_URL: "http://127.0.0.1:9000" })).toThrow(
      "Invalid configuration: APP_STORE_CONNECT_API_URL: 127.0.0.1 is a private address (set ALLOW_PRIVATE_NETWORK_TARGETS=true to allow it)",
    );
    expect(() => loadConfig({ ...base, GOOGLE_PLAY_API_URL: "http://[::1]:9000" })).toThrow(
      /GOOGLE_PLAY_API_URL: ::1/,
    );
    expect(() => loadConfig({ ...base, GOOGLE_OAUTH_TOKEN_URL: "http://localhost/token" })).toThrow(
      /localhost/,
    );
    const allowed = loadConfig({
      ...base,
      ALLOW_PRIVATE_NETWORK_TARGETS: "true",
      GOOGLE_PLAY_API_URL: "http://10.0.0.5",
    });
    expect(allowed.GOOGLE_PLAY_API_URL).toBe("http://10.0.0.5");
  });
});
