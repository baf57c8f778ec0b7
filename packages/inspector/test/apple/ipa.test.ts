import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeChunk, encodePng, pngSignature, readPngSize } from "../../src/apple/png.ts";
import { InspectError } from "../../src/errors.ts";
import { inspectIpa } from "../../src/formats/ipa.ts";
import { bufferSource, fileSource } from "../../src/source.ts";
import { writeZip } from "./zip-writer.ts";

const path = (name: string) => new URL(`../../fixtures/apple/${name}`, import.meta.url).pathname;
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

async function inspectFile(name: string) {
  const source = await fileSource(path(name));
  try {
    return await inspectIpa(source, { fileName: name.split("/").pop() as string }, "ipa");
  } finally {
    await source.close?.();
  }
}

const signerSha256 = "d30083aec3fed2630dd9a66bcd98451708ed2fd88a7c6239f4700829b0f366dc";

// Expected values: `plistutil -i Payload/<App>.app/Info.plist -f xml` and `file` on the icons,
// after `unzip` of each fixture; icon hashes are `sha256sum` of the chosen PNG.
describe("IPA", () => {
  it("reads the top-level bundle of the ad-hoc build, not the extension listed before it", async () => {
    const info = await inspectFile("ipa/adhoc.ipa");
    expect(info).toMatchObject({
      app_type: 1,
      file_type: "ipa",
      bundle_id: "com.tarmac.fixture.adhoc",
      name: "Tarmac Ad Hoc",
      version: "2.3.1",
      build_number: "231",
      min_os_version: "15.0",
      device_family: ["iphone", "ipad"],
      extensions: [
        {
          bundle_id: "com.tarmac.fixture.adhoc.widget",
          name: "Tarmac Widget",
          path: "Payload/Tarmac.app/PlugIns/Ext.appex",
        },
      ],
    });
    // AppIcon60x60@3x.png (180x180) beats AppIcon60x60@2x.png and AppIcon76x76@2x~ipad.png (152x152).
    expect(info.icon?.width).toBe(180);
    expect(info.icon?.height).toBe(180);
    expect(sha256(info.icon?.png as Buffer)).toBe(
      "4a8bc4ee723f2ce4cbb90d628a368309cf1ce90a23bfd49f8daf4fdbe60401b9",
    );
    expect(info.signing?.schemes).toEqual(["cms"]);
    expect(info.signing?.signed).toBe(true);
    expect(info.signing?.certificates.map((cert) => cert.sha256)).toEqual([signerSha256]);
    expect(info.provisioning).toMatchObject({
      signature_valid: true,
      kind: "ad_hoc",
      name: "Tarmac adhoc",
      uuid: "11111111-2222-3333-4444-555555555555",
      team_id: "ABCDE12345",
      team_name: "Tarmac Fixtures",
      devices: ["00008030-001A2D3C0E78802E", "2b6f0cc904d137be2e1730235f5664094b831186"],
      expired: false,
    });
  });

  it("reads an XML Info.plist with legacy CFBundleIconFiles and an enterprise profile", async () => {
    const info = await inspectFile("ipa/enterprise.ipa");
    expect(info).toMatchObject({
      bundle_id: "com.tarmac.fixture.enterprise",
      name: "Legacy Tarmac",
      version: "1.0",
      build_number: "1.0.7",
      min_os_version: "12.0",
      device_family: ["iphone"],
      extensions: [],
    });
    expect(info.provisioning?.kind).toBe("enterprise");
    expect(info.provisioning?.provisions_all_devices).toBe(true);
    // Icon@2x.png (114x114), found from the name "Icon.png".
    expect([info.icon?.width, info.icon?.height]).toEqual([114, 114]);
    expect(sha256(info.icon?.png as Buffer)).toBe(
      "d919e14b2323693a3ce3d18380f1675f09ea1788547dfa9e16bc3e6135330b55",
    );
    expect(info.signing).toEqual({
      schemes: ["cms"],
      signed: true,
      certificates: info.provisioning?.certificates,
    });
  });

  it("reads an App Store build with every device family and no icon", async () => {
    const info = await inspectFile("ipa/appstore.ipa");
    expect(info).toMatchObject({
      bundle_id: "com.tarmac.fixture.store",
      name: "Tarmac Store",
      version: "4.0.0",
      build_number: "400",
      min_os_version: "17.0",
      device_family: ["iphone", "ipad", "tv", "watch", "vision"],
      icon: null,
    });
    expect(info.provisioning?.kind).toBe("app_store");
  });

  it("reads an expired development build with a legacy CFBundleIconFile", async () => {
    const info = await inspectFile("ipa/development-expired.ipa");
    expect(info).toMatchObject({ bundle_id: "com.tarmac.fixture.dev", name: "DevTarmac", version: "0.9.0" });
    expect(info.provisioning?.kind).toBe("development");
    expect(info.provisioning?.expired).toBe(true);
    expect(info.provisioning?.expires).toBe("2024-06-01T00:00:00.000Z");
    expect([info.icon?.width, info.icon?.height]).toEqual([60, 60]);
    expect(sha256(info.icon?.png as Buffer)).toBe(
      "90c7e381bbc1cbd7e91477f2777882930cf3fb3423fc3a799689acfe8b362689",
    );
  });

  it("un-crushes a CgBI icon", async () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(1, 0);
    ihdr.writeUInt32BE(1, 4);
    ihdr[8] = 8;
    ihdr[9] = 6;
    const crushed = Buffer.concat([
      pngSignature,
      encodeChunk("CgBI", Buffer.from([0x50, 0, 0x20, 2])),
      encodeChunk("IHDR", ihdr),
      encodeChunk("IDAT", deflateRawSync(Buffer.from([0, 30, 20, 10, 255]))),
      encodeChunk("IEND", Buffer.alloc(0)),
    ]);
    const info = `<plist><dict><key>CFBundleIdentifier</key><string>x.y</string>
      <key>CFBundleIconFiles</key><array><string>Icon</string></array></dict></plist>`;
    const zip = writeZip([
      { name: "Payload/A.app/Info.plist", data: info },
      { name: "Payload/A.app/Icon@2x.png", data: crushed },
    ]);
    const result = await inspectIpa(bufferSource(zip), { fileName: "a.ipa" }, "ipa");
    expect(result.icon?.png.includes("CgBI")).toBe(false);
    expect(readPngSize(result.icon?.png as Buffer)).toEqual({ width: 1, height: 1 });
    expect(result.device_family).toEqual(["iphone"]);
    expect(result.signing).toEqual({ schemes: [], signed: false, certificates: [] });
    expect(result.provisioning).toBeNull();
  });

  it("finds the sized files of an icon set named only by CFBundleIconName", async () => {
    const info = `<plist><dict><key>CFBundleIdentifier</key><string>x.y</string>
      <key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict>
      <key>CFBundleIconName</key><string>AppIcon</string></dict></dict></dict></plist>`;
    const zip = writeZip([
      { name: "Payload/A.app/Info.plist", data: info },
      { name: "Payload/A.app/AppIcon60x60@2x.png", data: encodePng(4, 4, Buffer.alloc(64)) },
      { name: "Payload/A.app/AppIcon83.5x83.5@2x~ipad.png", data: encodePng(6, 6, Buffer.alloc(144)) },
      { name: "Payload/A.app/AppIconLarge.png", data: encodePng(8, 8, Buffer.alloc(256)) },
      { name: "Payload/A.app/Sub/AppIcon99x99.png", data: encodePng(9, 9, Buffer.alloc(324)) },
    ]);
    const result = await inspectIpa(bufferSource(zip), { fileName: "a.ipa" }, "ipa");
    expect([result.icon?.width, result.icon?.height]).toEqual([6, 6]);
  });

  it("refuses an archive whose only Info.plist belongs to a nested bundle", async () => {
    const zip = writeZip([
      { name: "Payload/A.app/PlugIns/E.appex/Info.plist", data: "<plist><dict/></plist>" },
      { name: "Payload/Info.plist", data: "<plist><dict/></plist>" },
    ]);
    await expect(inspectIpa(bufferSource(zip), { fileName: "a.ipa" }, "ipa")).rejects.toMatchObject({
      reason: "missing_manifest",
    });
  });

  it("turns a damaged Info.plist or profile into InspectError", async () => {
    const zip = writeZip([{ name: "Payload/A.app/Info.plist", data: "bplist00garbage" }]);
    await expect(inspectIpa(bufferSource(zip), { fileName: "a.ipa" }, "ipa")).rejects.toBeInstanceOf(
      InspectError,
    );
    const withProfile = writeZip([
      { name: "Payload/A.app/Info.plist", data: "<plist><dict/></plist>" },
      { name: "Payload/A.app/embedded.mobileprovision", data: Buffer.from([0x30, 0x80, 0x06]) },
    ]);
    await expect(inspectIpa(bufferSource(withProfile), { fileName: "a.ipa" }, "ipa")).rejects.toMatchObject({
      reason: "corrupt",
    });
    await expect(
      inspectIpa(
        bufferSource(readFileSync(path("ipa/adhoc.ipa")).subarray(0, 3000)),
        { fileName: "a.ipa" },
        "ipa",
      ),
    ).rejects.toBeInstanceOf(InspectError);
  });
});
