/** `npm pack -w packages/cli`: the tarball users install, run as installed. */
import { execFileSync } from "node:child_process";
import { readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "../../../apps/server/test/helpers/temp-dirs.ts";
import { repoRoot, runNode } from "./cli-harness.ts";

afterAll(() => removeTempDirs());

describe("npm pack", () => {
  it("makes a tarball of the command and its bundle that runs once installed", async () => {
    const packed = tempDir("cli-pack");
    // Without its prepack build: the test setup built the bundle, and other test files run it now.
    const pack = ["pack", "-w", "packages/cli", "--pack-destination", packed, "--silent", "--ignore-scripts"];
    execFileSync("npm", pack, {
      cwd: repoRoot,
      stdio: "ignore",
    });
    const [tarball] = readdirSync(packed).filter((name) => name.endsWith(".tgz"));
    expect(tarball).toMatch(/^tarmac-cli-\d+\.\d+\.\d+\.tgz$/);
    const listed = execFileSync("tar", ["tzf", path.join(packed, tarball as string)], { encoding: "utf8" });
    expect(listed.trim().split("\n").sort()).toEqual([
      "package/bin/tarmac.mjs",
      "package/dist/tarmac.mjs",
      "package/package.json",
    ]);
    // Installed: the package's own files, with its dependencies (the image codecs) beside it.
    const installed = tempDir("cli-installed");
    execFileSync("tar", ["xzf", path.join(packed, tarball as string), "-C", installed]);
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(installed, "node_modules"));
    const bin = path.join(installed, "package/bin/tarmac.mjs");
    const help = await runNode(bin, ["--help"], {}, installed);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("upload FILE");
    const version = await runNode(bin, ["--version"], {}, installed);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 120_000);
});
