/**
 * Updraft's CI clients, run as they run: their curl command lines against a listening server.
 * Sources: docs.getupdraft.com/api/curl; the fastlane action (appswithlove/fastlane_tools,
 * fastlane/actions/updraft.rb); the Gradle plugin (appswithlove/updraft-plugin-android,
 * UpdraftTask.kt); the Bitrise step (appswithlove/bitrise-step-deploy-to-updraft, step.sh).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dmg, uploadNewApp } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const run = promisify(execFile);

/** Ruby's Shellwords.escape, which the fastlane action applies to every value. */
function shellescape(value: string): string {
  if (value === "") return "''";
  return value.replace(/[^A-Za-z0-9_\-.,:+/@\n]/g, "\\$&").replace(/\n/g, "'\n'");
}

let t: TestApp;
let base: string;
let work: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  work = mkdtempSync(path.join(os.tmpdir(), "tarmac-updraft-"));
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

/** A repository with one commit, a tag on it and an origin, as a CI checkout has. */
function gitCheckout(tag: string): string {
  const repo = mkdtempSync(path.join(work, "repo-"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "ci@example.test");
  git("config", "user.name", "CI");
  writeFileSync(path.join(repo, "README"), "rocket\n");
  git("add", "README");
  git("commit", "-q", "-m", "Fix the login screen\n\nAnd the crash on start.");
  git("tag", tag);
  git("remote", "add", "origin", "git@github.com:acme/rocket.git");
  return repo;
}

async function appWithKey() {
  const { organization, owner } = await createOrganization(t);
  const app = await uploadNewApp(t, owner.token, organization.id, dmg("1.0.0"));
  const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
  return { owner, app, uploadUrl: `${base}/api/app_upload/${app.app_key}/${apiKey}/` };
}

function buildFile(version: string): string {
  const file = dmg(version);
  const filePath = path.join(work, file.name);
  writeFileSync(filePath, file.content);
  return filePath;
}

async function currentVersion(token: string, appId: number) {
  const response = await t.app.inject({ url: `/api/applications/${appId}/`, headers: authHeader(token) });
  return response.json().current_version;
}

describe("Updraft's CI clients, unchanged but for the host", () => {
  it("fastlane's action: file part first, git output with its trailing newlines", async () => {
    const { owner, app, uploadUrl } = await appWithKey();
    const repo = gitCheckout("v1.0.1");
    // What the action reads (Helper.backticks keeps the newline; Actions.git_branch strips it).
    const backticks = (command: string) =>
      execFileSync("bash", ["-c", command], { cwd: repo, encoding: "utf8" });
    const gitUrl = backticks("git remote get-url origin");
    const gitBranch = backticks("git rev-parse --abbrev-ref HEAD").trim();
    const gitTag = backticks("git tag -l --points-at HEAD");
    const gitCommit = backticks("git rev-parse HEAD");
    const whatsNew = backticks("git log -1 --pretty=%B");
    expect(gitCommit.endsWith("\n")).toBe(true);
    const command = [
      "curl -X PUT",
      ` -F app=@${shellescape(buildFile("1.0.1"))}`,
      ` -F custom_git_url=${shellescape(gitUrl)}`,
      ` -F custom_git_branch=${shellescape(gitBranch)}`,
      ` -F custom_git_tag=${shellescape(gitTag)}`,
      ` -F custom_git_commit_hash=${shellescape(gitCommit)}`,
      ` -F whats_new=${shellescape(whatsNew)}`,
      ` -F custom_bundle_version=${shellescape("101")}`,
      ` -F build_type=${shellescape("CI")}`,
      ` ${shellescape(uploadUrl)}`,
      " --http1.1",
    ].join("");
    const { stdout } = await run("bash", ["-c", command], { cwd: repo });
    expect(JSON.parse(stdout)).toMatchObject({ success: "ok", id: app.id });
    expect(await currentVersion(owner.token, app.id)).toMatchObject({
      version: "1.0.1",
      git_url: "git@github.com:acme/rocket.git",
      git_branch: "main",
      git_tag: "v1.0.1",
      git_commit: gitCommit.trim(),
      whats_new: "Fix the login screen\n\nAnd the crash on start.",
      custom_bundle_version: "101",
      build_type: "CI",
    });
  });

  it("the Gradle plugin: names with a leading space, and the body it parses", async () => {
    const { owner, app, uploadUrl } = await appWithKey();
    // UpdraftTask.kt passes "-F name=value" as one argument for everything but app and build_type.
    const args = [
      "-X",
      "PUT",
      "-F",
      `app=@${buildFile("1.0.2")}`,
      "-F",
      "build_type=Gradle",
      "-F custom_branch=develop",
      "-F custom_URL=https://github.com/acme/rocket.git",
      "-F custom_tags=v1.0.2-3-gabc1234",
      "-F custom_commit=abc1234def",
      "-F whats_new=Gradle notes",
      uploadUrl,
    ];
    const { stdout } = await run("curl", ["-s", ...args]);
    const body = JSON.parse(stdout);
    // The plugin's success test: success == "ok", then it prints public_link.
    expect(body.success).toBe("ok");
    expect(body.public_link).toMatch(/\/getapp\/[\w-]+$/);
    expect(
      (
        await t.app.inject({
          url: `${new URL(body.public_link).pathname.replace("/getapp/", "/api/getapp/")}/`,
        })
      ).statusCode,
    ).toBe(200);
    expect(await currentVersion(owner.token, app.id)).toMatchObject({
      git_branch: "develop",
      git_url: "https://github.com/acme/rocket.git",
      git_tag: "v1.0.2-3-gabc1234",
      git_commit: "abc1234def",
      whats_new: "Gradle notes",
      build_type: "Gradle",
    });
    // A wrong key answers DRF's 404 body, which the plugin reports as a wrong URL.
    const wrong = await run("curl", ["-s", ...args.slice(0, -1), uploadUrl.replace(/[^/]+\/$/, "nope/")]);
    expect(JSON.parse(wrong.stdout)).toEqual({ detail: "Not found." });
  });

  it("the Bitrise step: fields before the file, curl -f fails on a refused build", async () => {
    const { owner, app, uploadUrl } = await appWithKey();
    const output = path.join(work, "output.json");
    const step = (file: string) =>
      run("bash", [
        "-c",
        `curl --silent -f -o "${output}" -F whats_new="Bitrise notes" -F build_type="bitrise" -F "app=@${file}" -X PUT ${uploadUrl}`,
      ]);
    await step(buildFile("1.0.3"));
    expect(await currentVersion(owner.token, app.id)).toMatchObject({
      version: "1.0.3",
      whats_new: "Bitrise notes",
      build_type: "bitrise",
    });
    // The same version again is error 2: an HTTP error, so the step fails as it should.
    await expect(step(buildFile("1.0.3"))).rejects.toMatchObject({ code: 22 });
    const refused = await run("curl", ["-s", "-X", "PUT", "-F", `app=@${buildFile("1.0.3")}`, uploadUrl]);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: "fail", code: 2 });
  });

  it("the documented curl upload with its field names", async () => {
    const { owner, app, uploadUrl } = await appWithKey();
    await run("curl", [
      "-s",
      "-X",
      "PUT",
      "-F",
      `app=@${buildFile("1.0.4")}`,
      "-F",
      "whats_new=Docs notes",
      "-F",
      "build_type=Jenkins",
      "-F",
      "custom_branch=release",
      "-F",
      "git_tag=v1.0.4",
      "-F",
      "git_commit_hash=0f0f0f0f",
      "-F",
      "git_url=https://gitlab.com/acme/rocket",
      uploadUrl,
    ]);
    expect(await currentVersion(owner.token, app.id)).toMatchObject({
      version: "1.0.4",
      git_branch: "release",
      git_tag: "v1.0.4",
      git_commit: "0f0f0f0f",
      git_url: "https://gitlab.com/acme/rocket",
      build_type: "Jenkins",
    });
  });
});
