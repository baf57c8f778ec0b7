/**
 * `tarmac upload --apk --wait` against a server that builds universal APKs: its own converter
 * with a key it makes for the app, or a stand-in bundletool that fails.
 */
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFakeBundletool } from "../../../apps/server/test/builds/fake-bundletool.ts";
import { removeTempDirs } from "../../../apps/server/test/helpers/temp-dirs.ts";
import { repoRoot, type Stage, startStage } from "./cli-harness.ts";

afterAll(() => removeTempDirs());

/** An Android app made from a preload of the bundle, its first version deleted again. */
async function androidApp(stage: Stage): Promise<{ key: string; bundle: string }> {
  const bundle = path.join(stage.work, "bundle.aab");
  copyFileSync(path.join(repoRoot, "packages/inspector/fixtures/android/bundle.aab"), bundle);
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read as the server sends them.
  const call = async (method: string, url: string, body?: FormData | object): Promise<any> => {
    const form = body instanceof FormData;
    const answer = await fetch(`${stage.server.url}${url}`, {
      method,
      headers: {
        authorization: `Token ${stage.apiKey}`,
        ...(body && !form ? { "content-type": "application/json" } : {}),
      },
      body: form ? body : body ? JSON.stringify(body) : undefined,
    });
    expect(answer.status, `${method} ${url}`).toBeLessThan(300);
    return answer.status === 204 ? null : answer.json();
  };
  const form = new FormData();
  form.append("organization", String(stage.app.organization));
  form.append("file", new Blob([new Uint8Array(readFileSync(bundle))]), "bundle.aab");
  const preload = await call("POST", "/api/applicationadd/?preload=1", form);
  const app = await call("POST", "/api/applications/", {
    organization: stage.app.organization,
    preload_path: preload.preload_path,
    project_title: "Droid",
    title: "Droid",
  });
  // The CLI then uploads the same bundle as the app's only version.
  await call("DELETE", `/api/versions/${app.current_version.id}/`);
  return { key: app.app_key, bundle };
}

describe("tarmac upload --wait", () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await startStage();
  });
  afterAll(async () => {
    await stage?.close();
  });

  it("is answered while the APK is built, and with --wait once it is ready", async () => {
    const { key, bundle } = await androidApp(stage);
    const upload = (extra: string[]) =>
      stage.cli(["upload", bundle, "--app", key, "--apk", "--git", "off", "--json", ...extra]);
    const answered = await upload([]);
    expect(answered.code, answered.stderr).toBe(0);
    const first = JSON.parse(answered.stdout).version;
    expect(first.state).toBe("processing");
    // The same build again, once the first is out of the way: --wait polls until it is built.
    await expect
      .poll(
        async () => JSON.parse((await stage.cli(["versions", key, "--json"])).stdout).versions[0]?.state,
        {
          timeout: 20_000,
        },
      )
      .toBe("ready");
    const removed = await fetch(`${stage.server.url}/api/versions/${first.id}/`, {
      method: "DELETE",
      headers: { authorization: `Token ${stage.apiKey}` },
    });
    expect(removed.status).toBe(204);
    const waited = await upload(["--wait"]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({
      ok: true,
      version: { version: "1.4.2", state: "ready" },
    });
  });
});

describe("tarmac upload --wait on a build the server cannot process", () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await startStage({ BUNDLETOOL_JAR: compileFakeBundletool({ fail: true }) });
  });
  afterAll(async () => {
    await stage?.close();
  });

  it("exits 9 with one line", async () => {
    const { key, bundle } = await androidApp(stage);
    const run = await stage.cli([
      "upload",
      bundle,
      "--app",
      key,
      "--apk",
      "--wait",
      "--git",
      "off",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(9);
    expect(run.stderr.trim().split("\n").at(-1)).toBe("tarmac: the server could not process the build");
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, exit_code: 9 });
  });
});
