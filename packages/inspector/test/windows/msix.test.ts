import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import { inspectMsix } from "../../src/formats/msix.ts";
import { bufferSource } from "../../src/source.ts";
import type { FileType } from "../../src/types.ts";
import { buildZip } from "../android/zip-builder.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/windows/${name}`, import.meta.url));
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

// `openssl x509 -in fixtures/windows/keys/signer.pem -noout -subject -issuer -dates -fingerprint -sha256`
const signer = {
  subject: "C=US, O=Tarmac Test Co, CN=Tarmac Test Co",
  issuer: "C=US, O=Tarmac Test Co, CN=Tarmac Test Co",
  sha256: "ca777935f0a74cecec244511ef9aa0bbc3a91000c4bf1cce70c68b01a35fdc20",
  not_before: "2024-01-01T00:00:00.000Z",
  not_after: "2034-01-01T00:00:00.000Z",
};
const unsigned = { schemes: [], signed: false, certificates: [] };
const signed = { schemes: ["authenticode"], signed: true, certificates: [signer] };

// The AppxManifest.xml written by fixtures/make-windows.sh.
const demo = {
  app_type: 2,
  bundle_id: "TarmacTest.Demo",
  name: "Tarmac Demo",
  version: "1.2.3.0",
  build_number: "1230",
  min_os_version: "10.0.17763.0",
  publisher: "CN=Tarmac Test Co, O=Tarmac Test Co, C=US",
  architecture: "x64",
  version_from_file_name: false,
};
// `unzip -p demo.msix Assets/StoreLogo.scale-200.png | sha256sum` (100x100, the largest variant).
const demoLogo = "9b8c0a3a4b8ff5248b09cf4a4fdfd1a26cc8d3c82af4b75aa68bdde4e9d72587";
const bundlePackages = [{ identifier: "TarmacDemo_1.2.3.0_x64.msix", version: "1.2.3.0" }];

async function inspectFixture(name: string, fileType: FileType) {
  const info = await inspectMsix(bufferSource(fixture(name)), { fileName: name }, fileType);
  const { icon, ...rest } = info;
  return { rest, icon: icon && { width: icon.width, height: icon.height, sha256: sha256(icon.png) } };
}

async function reasonOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (error instanceof InspectError) return `${error.reason}: ${error.message}`;
    throw error;
  }
  return "no error";
}

describe("inspectMsix on fixtures", () => {
  it("reads an unsigned .msix and picks the largest scale variant of the logo", async () => {
    const { rest, icon } = await inspectFixture("demo.msix", "msix");
    expect(rest).toEqual({ ...demo, file_type: "msix", signing: unsigned });
    expect(icon).toEqual({ width: 100, height: 100, sha256: demoLogo });
  });

  it("reports the Authenticode certificate of an osslsigncode-signed .msix", async () => {
    const { rest } = await inspectFixture("demo-signed.msix", "msix");
    expect(rest).toEqual({ ...demo, file_type: "msix", signing: signed });
  });

  it("reads an .appx whose logo has no scale variants", async () => {
    const { rest, icon } = await inspectFixture("demo.appx", "appx");
    expect(rest).toEqual({
      app_type: 2,
      file_type: "appx",
      bundle_id: "TarmacTest.Legacy",
      name: "Tarmac Legacy",
      version: "2.0.1.0",
      build_number: "2010",
      min_os_version: "10.0.10240.0",
      publisher: "CN=Tarmac Test Co, O=Tarmac Test Co, C=US",
      architecture: "x86",
      version_from_file_name: false,
      signing: unsigned,
    });
    expect(icon).toEqual({
      width: 64,
      height: 64,
      sha256: "cff773cbe52d28250fa025a2c87b4caa60cc0df4447fc677d353e9fbaf1728d2",
    });
  });

  it("reads a bundle, taking name and icon from its stored inner package", async () => {
    const plain = await inspectFixture("demo.msixbundle", "msixbundle");
    expect(plain.rest).toEqual({
      ...demo,
      file_type: "msixbundle",
      signing: unsigned,
      packages: bundlePackages,
    });
    expect(plain.icon).toEqual({ width: 100, height: 100, sha256: demoLogo });
    const signedBundle = await inspectFixture("demo-signed.msixbundle", "msixbundle");
    expect(signedBundle.rest).toEqual({
      ...demo,
      file_type: "msixbundle",
      signing: signed,
      packages: bundlePackages,
    });
  });

  it("reads the signed bundle inside a stored .msixupload", async () => {
    const { rest, icon } = await inspectFixture("demo.msixupload", "msixupload");
    expect(rest).toEqual({ ...demo, file_type: "msixupload", signing: signed, packages: bundlePackages });
    expect(icon).toEqual({ width: 100, height: 100, sha256: demoLogo });
  });

  it("inflates the package inside a deflated .appxupload", async () => {
    const { rest } = await inspectFixture("demo.appxupload", "appxupload");
    expect(rest).toMatchObject({
      file_type: "appxupload",
      bundle_id: "TarmacTest.Legacy",
      version: "2.0.1.0",
    });
  });
});

function manifest(body: string, identity = 'Name="X.App" Publisher="CN=X" Version="3.1.0.7"'): Buffer {
  return Buffer.from(
    `<?xml version="1.0"?><Package xmlns="urn:x" xmlns:uap="urn:u"><Identity ${identity}/>${body}</Package>`,
  );
}

function png(width: number, height: number): Buffer {
  const header = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  const size = Buffer.alloc(8);
  size.writeUInt32BE(width, 0);
  size.writeUInt32BE(height, 4);
  return Buffer.concat([header, size, Buffer.from("0806000000", "hex")]);
}

async function inspectEntries(entries: { name: string; data: Buffer }[], fileType: FileType = "msix") {
  return inspectMsix(bufferSource(buildZip(entries)), { fileName: `x.${fileType}` }, fileType);
}

describe("inspectMsix on synthetic packages", () => {
  it("falls back from ms-resource display names to visual elements, then to the identity", async () => {
    const visual = await inspectEntries([
      {
        name: "AppxManifest.xml",
        data: manifest(
          "<Properties><DisplayName>ms-resource:AppName</DisplayName></Properties>" +
            '<Applications><Application><uap:VisualElements DisplayName="Visual Name"/></Application></Applications>',
        ),
      },
    ]);
    expect(visual.name).toBe("Visual Name");
    const identity = await inspectEntries([
      {
        name: "AppxManifest.xml",
        data: manifest("<Properties><DisplayName>ms-resource:A</DisplayName></Properties>"),
      },
    ]);
    expect(identity).toMatchObject({ name: "X.App", architecture: null, min_os_version: null, icon: null });
  });

  it("reads Windows 8 prerequisites and prefers the desktop device family", async () => {
    const win8 = await inspectEntries([
      {
        name: "AppxManifest.xml",
        data: manifest("<Prerequisites><OSMinVersion>6.3.0</OSMinVersion></Prerequisites>"),
      },
    ]);
    expect(win8.min_os_version).toBe("6.3.0");
    const families = await inspectEntries([
      {
        name: "AppxManifest.xml",
        data: manifest(
          '<Dependencies><TargetDeviceFamily Name="Windows.Universal" MinVersion="10.0.10240.0"/>' +
            '<TargetDeviceFamily Name="Windows.Desktop" MinVersion="10.0.19041.0"/></Dependencies>',
        ),
      },
    ]);
    expect(families.min_os_version).toBe("10.0.19041.0");
  });

  it("resolves logo variants case-insensitively, percent-encoded, and avoids contrast variants", async () => {
    const info = await inspectEntries([
      {
        name: "AppxManifest.xml",
        data: manifest("<Properties><Logo>Images\\Store Logo.png</Logo></Properties>"),
      },
      { name: "images/Store%20Logo.targetsize-48.png", data: png(48, 48) },
      { name: "Images/Store%20Logo.scale-125.png", data: png(63, 63) },
      { name: "Images/Store%20Logo.scale-400_contrast-black.png", data: png(200, 200) },
      { name: "Images/Store%20LogoOther.png", data: png(300, 300) },
      { name: "Images/sub/Store%20Logo.png", data: png(310, 310) },
      { name: "Images/Store%20Logo.scale-150.jpg", data: png(400, 400) },
    ]);
    expect(info.icon && [info.icon.width, info.icon.height]).toEqual([63, 63]);
    const contrastOnly = await inspectEntries([
      { name: "AppxManifest.xml", data: manifest("<Properties><Logo>Logo.png</Logo></Properties>") },
      { name: "Logo.contrast-white_scale-100.png", data: png(20, 20) },
      { name: "Logo.scale-100.png", data: Buffer.from("not a png") },
    ]);
    expect(contrastOnly.icon && [contrastOnly.icon.width, contrastOnly.icon.height]).toEqual([20, 20]);
  });

  it.each([
    ["a zip without any manifest", [{ name: "readme.txt", data: Buffer.from("x") }], "missing_manifest"],
    [
      "a manifest with another root",
      [{ name: "AppxManifest.xml", data: Buffer.from("<Bundle/>") }],
      "missing_manifest",
    ],
    [
      "a manifest without Identity",
      [{ name: "AppxManifest.xml", data: Buffer.from("<Package/>") }],
      "missing_manifest",
    ],
    [
      "a malformed manifest",
      [{ name: "AppxManifest.xml", data: Buffer.from("<Package><Identity>") }],
      "corrupt",
    ],
    [
      "a p7x without its PKCX magic",
      [
        { name: "AppxManifest.xml", data: manifest("") },
        { name: "AppxSignature.p7x", data: Buffer.from("MZxx") },
      ],
      "corrupt",
    ],
    [
      "a p7x with garbage after PKCX",
      [
        { name: "AppxManifest.xml", data: manifest("") },
        { name: "AppxSignature.p7x", data: Buffer.from("PKCX\u0030\u0084\u00ff\u00ff\u00ff\u00ff") },
      ],
      "corrupt",
    ],
  ])("refuses %s", async (_label, entries, reason) => {
    expect(await reasonOf(() => inspectEntries(entries))).toMatch(new RegExp(`^${reason}: `));
  });

  it("refuses an upload that holds no package, and a bundle entry that is not a zip", async () => {
    expect(
      await reasonOf(() =>
        inspectEntries([{ name: "TarmacDemo.appxsym", data: Buffer.from("x") }], "msixupload"),
      ),
    ).toBe("missing_manifest: no AppxManifest.xml, bundle manifest or inner package found");
    expect(
      await reasonOf(() =>
        inspectEntries([{ name: "Inner.msixbundle", data: Buffer.from("not a zip") }], "msixupload"),
      ),
    ).toMatch(/^corrupt: /);
  });

  it("does not look for nested packages in a plain .msix", async () => {
    const inner = fixture("demo.msix");
    expect(await reasonOf(() => inspectEntries([{ name: "demo.msix", data: inner }], "msix"))).toMatch(
      /^missing_manifest: /,
    );
  });
});
