import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "tarmac-config-"));

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe("http://localhost:3000");
    expect(config.ROLES).toEqual(["web", "worker"]);
    expect(config.STORAGE_DRIVER).toBe("local");
    expect(config.STORAGE_LOCAL_DIR).toBe(path.join(dir, "storage"));
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("generates SECRET_KEY once, keeps it in DATA_DIR readable only by the owner", () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).SECRET_KEY;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: dir }).SECRET_KEY).toBe(first);
    expect(readFileSync(path.join(dir, "secret.key"), "utf8").trim()).toBe(first);
    expect(statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  it("prefers an explicit SECRET_KEY and treats empty values as unset", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), SECRET_KEY: "k".repeat(40), DATABASE_URL: "" });
    expect(config.SECRET_KEY).toBe("k".repeat(40));
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("parses process roles", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), ROLES: "worker" }).ROLES).toEqual(["worker"]);
    expect(loadConfig({ DATA_DIR: tempDir(), ROLES: " web , worker " }).ROLES).toEqual(["web", "worker"]);
  });

  it.each([
    [{ PORT: "abc" }, /^Invalid configuration: PORT: /],
    [{ PORT: "70000" }, /^Invalid configuration: PORT: /],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL: must be a postgres/],
    [
      { STORAGE_DRIVER: "ftp" },
      /^Invalid configuration: STORAGE_DRIVER: unknown storage driver; supported: local$/,
    ],
    [{ ROLES: "web,cron" }, /^Invalid configuration: ROLES/],
    [{ SECRET_KEY: "short" }, /^Invalid configuration: SECRET_KEY: must be at least 32 characters$/],
    [{ PUBLIC_URL: "ftp://example.com" }, /^Invalid configuration: PUBLIC_URL: /],
    [{ GTM_CONTAINER_ID: "UA-1" }, /^Invalid configuration: GTM_CONTAINER_ID: must look like GTM-XXXXXXX$/],
  ])("rejects %o with one line naming the variable", (env, message) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tempDir(), ...env });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });
});
