import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../test/helpers/temp-dirs.ts";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const dir = tempDir("config");
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe("http://localhost:3000");
    expect(config.ROLES).toEqual(["web", "worker"]);
    expect(config.STORAGE_DRIVER).toBe("local");
    expect(config.STORAGE_LOCAL_DIR).toBe(path.join(dir, "storage"));
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("generates SECRET_KEY once, keeps it in DATA_DIR readable only by the owner", () => {
    const dir = tempDir("config");
    const first = loadConfig({ DATA_DIR: dir }).SECRET_KEY;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: dir }).SECRET_KEY).toBe(first);
    expect(readFileSync(path.join(dir, "secret.key"), "utf8").trim()).toBe(first);
    expect(statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  it("prefers an explicit SECRET_KEY and treats empty values as unset", () => {
    const config = loadConfig({ DATA_DIR: tempDir("config"), SECRET_KEY: "k".repeat(40), DATABASE_URL: "" });
    expect(config.SECRET_KEY).toBe("k".repeat(40));
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("parses process roles", () => {
    expect(loadConfig({ DATA_DIR: tempDir("config"), ROLES: "worker" }).ROLES).toEqual(["worker"]);
    expect(loadConfig({ DATA_DIR: tempDir("config"), ROLES: " web , worker " }).ROLES).toEqual([
      "web",
      "worker",
    ]);
  });

  it.each([
    [{ PORT: "abc" }, /^Invalid configuration: PORT: /],
    [{ PORT: "70000" }, /^Invalid configuration: PORT: /],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL: must be a postgres/],
    [{ ROLES: "web,cron" }, /^Invalid configuration: ROLES/],
    [{ SECRET_KEY: "short" }, /^Invalid configuration: SECRET_KEY: must be at least 32 characters$/],
    [{ PUBLIC_URL: "ftp://example.com" }, /^Invalid configuration: PUBLIC_URL: /],
    [{ GTM_CONTAINER_ID: "UA-1" }, /^Invalid configuration: GTM_CONTAINER_ID: must look like GTM-XXXXXXX$/],
  ])("rejects %o with one line naming the variable", (env, message) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tempDir("config"), ...env });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it("stops with one line naming what an object storage driver is missing", () => {
    const base = { DATA_DIR: tempDir("config"), SECRET_KEY: "k".repeat(40) };
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return "";
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
    };
    expect(problem({ STORAGE_DRIVER: "ftp" })).toBe(
      "Invalid configuration: STORAGE_DRIVER: unknown storage driver; supported: local, s3, gcs, azure",
    );
    expect(problem({ STORAGE_DRIVER: "s3" })).toBe(
      "Invalid configuration: S3_BUCKET: required when STORAGE_DRIVER=s3",
    );
    expect(problem({ STORAGE_DRIVER: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" })).toBe(
      "Invalid configuration: S3_SECRET_ACCESS_KEY: required when STORAGE_DRIVER=s3",
    );
    expect(
      problem({
        STORAGE_DRIVER: "s3",
        S3_BUCKET: "b",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s",
        S3_ENDPOINT: "minio",
      }),
    ).toBe("Invalid configuration: S3_ENDPOINT: must be an http:// or https:// URL");
    expect(problem({ STORAGE_DRIVER: "azure", AZURE_STORAGE_CONNECTION_STRING: "x" })).toBe(
      "Invalid configuration: AZURE_STORAGE_CONTAINER: required when STORAGE_DRIVER=azure",
    );
    expect(problem({ STORAGE_DRIVER: "gcs", GCS_BUCKET: "b" })).toBe(
      "Invalid configuration: GCS_CREDENTIALS: required when STORAGE_DRIVER=gcs",
    );
    expect(problem({ STORAGE_DRIVER: "gcs", GCS_BUCKET: "b", GCS_CREDENTIALS: "/nowhere/key.json" })).toBe(
      "Invalid configuration: GCS_CREDENTIALS: neither a JSON key nor a readable file",
    );
    expect(
      problem({ STORAGE_DRIVER: "gcs", GCS_BUCKET: "b", GCS_CREDENTIALS: '{"type":"authorized_user"}' }),
    ).toBe(
      "Invalid configuration: GCS_CREDENTIALS: not a service account key (type must be service_account)",
    );
    const complete = loadConfig({
      ...base,
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "b",
      S3_ACCESS_KEY_ID: "k",
      S3_SECRET_ACCESS_KEY: "s",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(complete).toMatchObject({
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: true,
      STORAGE_PROXY_DOWNLOADS: false,
    });
  });
});
