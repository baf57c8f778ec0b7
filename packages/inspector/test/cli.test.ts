import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../bin/tarmac-inspect.mjs", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/windows/${name}`, import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "tarmac-inspect-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("tarmac-inspect", () => {
  it("prints an MSIX as JSON and writes its icon", async () => {
    const iconPath = join(scratch, "icon.png");
    const result = await run(fixture("demo-signed.msix"), "--icon", iconPath);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({
      app_type: 2,
      file_type: "msix",
      bundle_id: "TarmacTest.Demo",
      name: "Tarmac Demo",
      version: "1.2.3.0",
      build_number: "1230",
      icon: { present: true, width: 100, height: 100, bytes: 92 },
      signing: { schemes: ["authenticode"], signed: true },
    });
    expect(Object.keys(printed).indexOf("icon")).toBe(7);
    const png = readFileSync(iconPath);
    expect(png.length).toBe(92);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });

  it("prints an MSI with its icon summarized", async () => {
    const result = await run(fixture("demo.msi"));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      app_type: 2,
      file_type: "msi",
      bundle_id: "{0D5E7F21-6A3B-4C8D-9E0F-112233445566}",
      name: "Tarmac Demo",
      version: "1.2.3",
      build_number: "123",
      min_os_version: null,
      icon: { present: true, width: 48, height: 48, bytes: expect.any(Number) },
      signing: { schemes: [], signed: false, certificates: [] },
      manufacturer: "Tarmac Test Co",
      product_code: "{8F2C6B1E-3D4A-4E5B-9C7D-1A2B3C4D5E6F}",
      upgrade_code: "{0D5E7F21-6A3B-4C8D-9E0F-112233445566}",
      architecture: "x64",
      version_from_file_name: false,
    });
  });

  it("passes --app-type to the .zip rule", async () => {
    const result = await run("--app-type", "2", fixture("TarmacDemo-1.4.2.zip"));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      app_type: 2,
      file_type: "zip",
      version: "1.4.2",
      name: "TarmacDemo",
    });
  });

  it("notes a missing icon instead of writing a file", async () => {
    const result = await run(fixture("bare.msi"), "--icon", join(scratch, "none.png"));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).icon).toEqual({ present: false });
    expect(result.stderr).toBe(`note: the build has no icon; ${join(scratch, "none.png")} was not written\n`);
  });

  it("exits 1 with the reason on stderr for a bad build", async () => {
    const broken = join(scratch, "broken.msi");
    writeFileSync(broken, readFileSync(fixture("demo.msi")).subarray(0, 3000));
    const result = await run(broken);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: corrupt: /);
    const unsupported = await run(fixture("keys/signer.pem"));
    expect(unsupported.code).toBe(1);
    expect(unsupported.stderr).toBe(
      "error: unsupported_type: Unsupported file type. Please upload the .apk, .aab, .ipa, .msix, .msixbundle, " +
        ".msixupload, .zip, .msi, .appx, .appxbundle, .appxupload, .dmg, .pkg\n",
    );
  });

  it.each([
    [[], "expected exactly one FILE"],
    [["a.msi", "b.msi"], "expected exactly one FILE"],
    [["--app-type", "7", "a.msi"], '--app-type must be 0, 1, 2 or 3, not "7"'],
    [["--bogus", "a.msi"], "Unknown option '--bogus'"],
  ])("exits 2 on usage errors (%j)", async (args, message) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stderr).toContain("usage: tarmac-inspect FILE");
  });

  it("exits 2 when the file cannot be opened, 0 with --help", async () => {
    const missing = await run(join(scratch, "missing.msi"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: cannot open .*missing\.msi: ENOENT/);
    const help = await run("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: tarmac-inspect FILE/);
  });
});
