import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cuttingProxy } from "../../../apps/server/test/helpers/cutting-proxy.ts";
import { freePort } from "../../../apps/server/test/helpers/server-process.ts";
import { repoRoot, runNode, type Stage, startStage } from "./cli-harness.ts";

const partBytes = 64 * 1024;
let stage: Stage;
beforeAll(async () => {
  stage = await startStage({ UPLOAD_RESUMABLE_PART_BYTES: String(partBytes) });
});
afterAll(async () => {
  await stage?.close();
});

/** A checkout with one commit, as CI has, holding the build. */
function checkout(version: string) {
  const repo = path.join(stage.work, `repo-${version}`);
  mkdirSync(repo);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  git("init", "-q", "-b", "release");
  git(
    "-c",
    "user.email=ci@example.test",
    "-c",
    "user.name=CI",
    "commit",
    "-q",
    "--allow-empty",
    "-m",
    "Faster start",
  );
  return { file: stage.build(version, repo), commit: git("rev-parse", "HEAD") };
}

/** Progress lines may come first; a failure is one line of its own, the last. */
const oneLine = (text: string) => {
  const lines = text.trim().split("\n");
  return (
    lines.filter((line) => line.startsWith("tarmac: ")).length === 1 && lines.at(-1)?.startsWith("tarmac: ")
  );
};

describe("tarmac upload", () => {
  it("uploads, waits and prints one JSON object; git fills the notes and commit", async () => {
    const { file, commit } = checkout("1.0.1");
    const run = await stage.cli(["upload", file, "--app", stage.app.app_key, "--ready", "--wait", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      ok: true,
      app: { id: stage.app.id, key: stage.app.app_key, title: "Rocket" },
      version: { version: "1.0.1", build: "101", state: "ready", ready: true },
      warnings: [],
    });
    expect(result.install_url).toMatch(/\/getapp\/[\w-]+$/);
    // Not a terminal: plain progress lines on stderr.
    expect(run.stderr).toContain("uploaded 100%");
    const listed = JSON.parse((await stage.cli(["versions", stage.app.app_key, "--json"])).stdout);
    expect(listed.versions[0]).toMatchObject({ id: result.version.id, version: "1.0.1", git_commit: commit });
  });

  it("resumes through a connection that drops mid-upload", async () => {
    const proxy = await cuttingProxy(Number(new URL(stage.server.url).port), 200_000);
    try {
      const run = await stage.cli(
        [
          "upload",
          stage.build("1.0.2"),
          "--app",
          String(stage.app.id),
          "--git",
          "off",
          "--notes",
          "cut",
          "--json",
        ],
        { TARMAC_URL: `http://127.0.0.1:${proxy.port}` },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(proxy.cuts()).toBe(1);
      expect(JSON.parse(run.stdout).version).toMatchObject({ version: "1.0.2", ready: false });
    } finally {
      await proxy.close();
    }
  });

  it("exits with the server's upload error codes, each with one line", async () => {
    const again = await stage.cli(["upload", stage.build("1.0.1"), "--app", stage.app.app_key, "--json"]);
    expect(again.code).toBe(2);
    expect(oneLine(again.stderr)).toBe(true);
    expect(again.stderr).toMatch(/\ntarmac: .*exist.*\n$/i);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: false, exit_code: 2 });

    const broken = path.join(stage.work, "broken.apk");
    writeFileSync(broken, "not a zip file at all");
    const unreadable = await stage.cli(["upload", broken, "--app", stage.app.app_key]);
    expect(unreadable.code).toBe(1);
    expect(oneLine(unreadable.stderr)).toBe(true);
  });

  it("exits 3, 5, 6 and 7 for those upload errors, each with one line", async () => {
    const fixture = (name: string) => {
      const copy = path.join(stage.work, path.basename(name));
      copyFileSync(path.join(repoRoot, "packages/inspector/fixtures", name), copy);
      return copy;
    };
    const limits = (values: Record<string, number | null>) =>
      fetch(`${stage.server.url}/api/admin/organizations/${stage.app.organization}/`, {
        method: "PATCH",
        headers: { authorization: `Token ${stage.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ limits: values }),
      }).then((answer) => expect(answer.status).toBe(200));
    const refusals: [number, string[]][] = [
      [3, [stage.build("0.9.0")]],
      [5, [fixture("android/modern.apk")]],
    ];
    for (const [code, args] of refusals) {
      const run = await stage.cli(["upload", ...args, "--app", stage.app.app_key, "--git", "off", "--json"]);
      expect(run.code, run.stderr).toBe(code);
      expect(oneLine(run.stderr), run.stderr).toBe(true);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, exit_code: code });
    }
    // The plan's limits: refused when the resumable upload is created, before its bytes are sent.
    for (const [code, values] of [
      [6, { space_limit: 1 }],
      [7, { build_limit: 1 }],
    ] as const) {
      await limits(values);
      try {
        const run = await stage.cli([
          "upload",
          stage.build("3.0.0"),
          "--app",
          stage.app.app_key,
          "--git",
          "off",
        ]);
        expect(run.code, run.stderr).toBe(code);
        expect(oneLine(run.stderr), run.stderr).toBe(true);
      } finally {
        await limits({ space_limit: null, build_limit: null });
      }
    }
  });

  it("tells auth, network and usage failures apart", async () => {
    const badKey = await stage.cli(["upload", stage.build("1.0.3"), "--app", stage.app.app_key], {
      TARMAC_API_KEY: "wrong-key",
    });
    expect(badKey.code).toBe(65);
    expect(oneLine(badKey.stderr)).toBe(true);
    const unreachable = await stage.cli(["apps", "--url", `http://127.0.0.1:${await freePort()}`]);
    expect(unreachable.code).toBe(69);
    expect(unreachable.stderr).toMatch(/^tarmac: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);
    for (const args of [
      ["upload"],
      ["upload", "x.apk", "--git", "maybe", "--app", "k"],
      ["launch"],
      ["apps", "--nope"],
    ]) {
      const run = await stage.cli(args);
      expect(run.code, args.join(" ")).toBe(64);
    }
    const missing = await stage.cli(["upload", "missing.apk", "--app", stage.app.app_key]);
    expect(missing.code).toBe(66);
  });
});

describe("tarmac apps, versions, testers", () => {
  it("lists apps and versions for people and as JSON", async () => {
    const people = await stage.cli(["apps"]);
    expect(people.stdout).toMatch(
      new RegExp(`^KEY\\s+ID\\s+PLATFORM.*\\n${stage.app.app_key}\\s+${stage.app.id}\\s+macOS`),
    );
    expect(JSON.parse((await stage.cli(["apps", "--json"])).stdout).apps).toContainEqual(
      expect.objectContaining({ id: stage.app.id, key: stage.app.app_key, platform: "macOS" }),
    );
    const versions = await stage.cli(["versions", stage.app.app_key]);
    expect(versions.stdout).toMatch(/^ID\s+VERSION\s+BUILD/);
    expect(versions.stdout).toContain("1.0.1");
  });

  it("sends the build to testers by address", async () => {
    const run = await stage.cli([
      "testers",
      "send",
      stage.app.app_key,
      "--emails",
      "ana@example.test, ben@example.test",
      "--notes",
      "Try it",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, recipients: 2 });
    // A request the server refuses for a reason of its own (no upload error code) is 70.
    const refused = await stage.cli(["testers", "send", stage.app.app_key, "--emails", "not an address"]);
    expect(refused.code, refused.stderr).toBe(70);
    expect(refused.stderr).toMatch(/^tarmac: request refused \(400\): .*\n$/);
  });
});

describe("settings", () => {
  it("login checks and saves them (0600); flags win over the file", async () => {
    const config = path.join(stage.work, "login-config");
    const env = { TARMAC_URL: "", TARMAC_API_KEY: "", XDG_CONFIG_HOME: config };
    const login = await stage.cli(["login", "--url", `${stage.server.url}/`, "--api-key", stage.apiKey], env);
    expect(login.code, login.stderr).toBe(0);
    const file = path.join(config, "tarmac", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url: stage.server.url, api_key: stage.apiKey });
    expect((await stage.cli(["apps", "--json"], env)).code).toBe(0);
    const overridden = await stage.cli(["apps", "--url", `http://127.0.0.1:${await freePort()}`], env);
    expect(overridden.code).toBe(69);
    const refused = await stage.cli(["login", "--url", stage.server.url, "--api-key", "nope"], env);
    expect(refused.code).toBe(65);
    const none = await stage.cli(["apps"], { ...env, XDG_CONFIG_HOME: path.join(stage.work, "empty") });
    expect(none.code).toBe(64);
  });
});

describe("tarmac inspect", () => {
  it("reads a build offline", async () => {
    const run = await stage.cli(["inspect", stage.build("2.3.4")], { TARMAC_URL: "", TARMAC_API_KEY: "" });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ file_type: "dmg", version: "2.3.4", build_number: "234" });
    const text = path.join(stage.work, "notes.txt");
    writeFileSync(text, "hello");
    expect((await stage.cli(["inspect", text])).code).toBe(1);
  });
});

describe("the GitHub Action", () => {
  it("runs the upload from INPUT_* variables and appends its outputs", async () => {
    const outputs = path.join(stage.work, "github-output");
    writeFileSync(outputs, "");
    const run = await runNode(
      path.join(repoRoot, "integrations/github-action/entry.mjs"),
      [],
      {
        INPUT_FILE: stage.build("1.1.0"),
        "INPUT_APP-KEY": stage.app.app_key,
        "INPUT_API-KEY": stage.apiKey,
        INPUT_URL: stage.server.url,
        INPUT_NOTES: "From the action",
        INPUT_READY: "true",
        INPUT_WAIT: "true",
        GITHUB_OUTPUT: outputs,
      },
      stage.work,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`::add-mask::${stage.apiKey}`);
    const written = Object.fromEntries(
      readFileSync(outputs, "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
    expect(written["version-id"]).toMatch(/^\d+$/);
    expect(written["install-url"]).toMatch(/\/getapp\/[\w-]+$/);
  });
});
