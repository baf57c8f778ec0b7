import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { icnsToPng, readIcnsMembers } from "../../src/apple/icns.ts";
import { encodePng } from "../../src/apple/png.ts";
import { InspectError } from "../../src/errors.ts";
import { inspectZip as inspectAnyZip } from "../../src/formats/zip-build.ts";
import { bufferSource } from "../../src/source.ts";
import { openZip } from "../../src/zip/index.ts";
import { decodeRgbaPng } from "./png-pixels.ts";
import { writeZip } from "./zip-writer.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/apple/${name}`, import.meta.url));
const inspectZip = (data: Buffer, fileName: string, appTypeHint: 2 | 3 = 3) =>
  inspectAnyZip(bufferSource(data), { fileName, appTypeHint }, "zip");

async function readAppIcns(): Promise<Buffer> {
  const zip = await openZip(bufferSource(fixture("mac/tarmac-mac.zip")));
  const entry = zip.find("Tarmac Mac.app/Contents/Resources/AppIcon.icns");
  if (!entry) throw new Error("fixture lacks its icns");
  return zip.read(entry);
}

// Values from `plistutil -i "Tarmac Mac.app/Contents/Info.plist" -f xml`.
const expected = {
  app_type: 3,
  file_type: "zip",
  bundle_id: "com.tarmac.fixture.mac",
  name: "Tarmac Mac",
  version: "3.1.4",
  build_number: "314",
  min_os_version: "12.0",
  version_from_file_name: false,
};

describe("ICNS", () => {
  it("lists the members png2icns wrote", async () => {
    // `icns2png -l AppIcon.icns`
    expect(readIcnsMembers(await readAppIcns()).map((member) => member.type)).toEqual([
      "is32",
      "s8mk",
      "il32",
      "l8mk",
      "ih32",
      "h8mk",
      "it32",
      "t8mk",
    ]);
  });

  it("decodes the RLE it32 + t8mk pair into the 128 px source image", async () => {
    const icon = icnsToPng(await readAppIcns());
    expect([icon?.width, icon?.height]).toEqual([128, 128]);
    const decoded = decodeRgbaPng(icon?.png as Buffer);
    expect(decoded.pixels.equals(decodeRgbaPng(fixture("mac/icon128.png")).pixels)).toBe(true);
  });

  it("prefers the largest PNG member over RLE and JPEG 2000 members", () => {
    const member = (type: string, data: Buffer) => {
      const head = Buffer.alloc(8);
      head.write(type, 0, "latin1");
      head.writeUInt32BE(data.length + 8, 4);
      return Buffer.concat([head, data]);
    };
    const small = encodePng(2, 2, Buffer.alloc(16, 0x80));
    const large = encodePng(4, 4, Buffer.alloc(64, 0x40));
    const jpeg2000 = Buffer.from("0000000c6a5020200d0a870a", "hex");
    const body = Buffer.concat([member("ic07", small), member("ic09", jpeg2000), member("ic08", large)]);
    const head = Buffer.alloc(8);
    head.write("icns", 0, "latin1");
    head.writeUInt32BE(body.length + 8, 4);
    const icon = icnsToPng(Buffer.concat([head, body]));
    expect(icon).toEqual({ png: large, width: 4, height: 4 });
    const onlyJpeg = Buffer.concat([head, member("ic09", jpeg2000)]);
    onlyJpeg.writeUInt32BE(onlyJpeg.length, 4);
    expect(icnsToPng(onlyJpeg)).toBeNull();
  });

  it("refuses members that overrun the file and RLE data that overflows", async () => {
    const bad = Buffer.from("icns\0\0\0\x20it32\0\0\xff\xff", "latin1");
    expect(() => icnsToPng(bad)).toThrow(InspectError);
    const rle = Buffer.concat([
      Buffer.from("icns\0\0\0\x15is32\0\0\0\x0d", "latin1"),
      Buffer.from([0xff, 1, 0xff, 2, 0x7f]),
    ]);
    expect(() => icnsToPng(rle)).toThrow(InspectError);
  });
});

describe("zipped macOS app", () => {
  it("reads the app at the top level of the zip", async () => {
    const info = await inspectZip(fixture("mac/tarmac-mac.zip"), "tarmac-mac.zip");
    expect(info).toMatchObject(expected);
    expect([info.icon?.width, info.icon?.height]).toEqual([128, 128]);
    expect(info.signing).toEqual({ schemes: [], signed: false, certificates: [] });
  });

  it("is macOS by its .app even when the hint says Windows (the upload dialog's default)", async () => {
    const info = await inspectZip(fixture("mac/tarmac-mac.zip"), "SomeTool.app.zip", 2);
    expect(info).toMatchObject({ ...expected, platform_source: "contents" });
  });

  it("reads the app one folder down", async () => {
    const info = await inspectZip(fixture("mac/tarmac-mac-nested.zip"), "Release.zip");
    expect(info).toMatchObject(expected);
    expect(info.icon?.width).toBe(128);
  });

  it("falls back to the file-name rule when no app is inside", async () => {
    const info = await inspectZip(fixture("mac/tarmac-noapp-1.4.2.zip"), "tarmac-noapp-1.4.2.zip");
    expect(info).toEqual({
      app_type: 3,
      file_type: "zip",
      bundle_id: null,
      name: null,
      version: "1.4.2",
      build_number: "142",
      min_os_version: null,
      icon: null,
      signing: null,
      version_from_file_name: true,
      platform_source: "hint",
    });
    // Nothing recognisable and no version in the name: nothing about it could be read.
    await expect(inspectZip(fixture("mac/tarmac-noapp-1.4.2.zip"), "tarmac.zip")).rejects.toMatchObject({
      reason: "missing_manifest",
    });
  });

  it("ignores an app two folders down and reports a missing icon as null", async () => {
    const plist = `<plist><dict><key>CFBundleIdentifier</key><string>a.b</string>
      <key>CFBundleIconFile</key><string>Missing</string></dict></plist>`;
    const deep = writeZip([{ name: "a/b/C.app/Contents/Info.plist", data: plist }]);
    expect((await inspectZip(deep, "x-2.0.0.zip")).version_from_file_name).toBe(true);
    const shallow = writeZip([{ name: "C.app/Contents/Info.plist", data: plist }]);
    const info = await inspectZip(shallow, "x.zip");
    expect(info.bundle_id).toBe("a.b");
    expect(info.icon).toBeNull();
  });
});
