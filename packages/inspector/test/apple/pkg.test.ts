import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openXar } from "../../src/apple/xar.ts";
import { InspectError } from "../../src/errors.ts";
import { inspectPkg } from "../../src/formats/pkg.ts";
import { bufferSource } from "../../src/source.ts";
import { appPackageInfo, distribution, helperPackageInfo, pkgFiles } from "./pkg-content.ts";
import { writeXar } from "./xar-writer.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/apple/${name}`, import.meta.url));
const inspectBytes = (data: Buffer) => inspectPkg(bufferSource(data), { fileName: "Tarmac.pkg" }, "pkg");
const signerSha256 = "d30083aec3fed2630dd9a66bcd98451708ed2fd88a7c6239f4700829b0f366dc";
const caSha256 = "9402c40a2e7260cd927e83e89582df5e070791e198fd0cb08f805849537cf086";

const expectedPackages = [
  { identifier: "com.tarmac.fixture.pkg.app", version: "5.6.7", install_location: "/Applications" },
  { identifier: "com.tarmac.fixture.pkg.helper", version: "1.0", install_location: "/Library/Tarmac" },
];

describe("xar reader", () => {
  it("lists the files of the signed fixture as `7z l` does", async () => {
    const xar = await openXar(bufferSource(fixture("pkg/tarmac-signed.pkg")));
    expect(xar.files.map((file) => file.path)).toEqual([
      "Distribution",
      "app.pkg/PackageInfo",
      "app.pkg/Bom",
      "app.pkg/Payload",
      "helper.pkg/PackageInfo",
    ]);
    expect(xar.checksumAlgorithm).toBe("sha1");
    expect(xar.signature?.style).toBe("RSA");
    expect(xar.signature?.valid).toBe(true);
    const distributionFile = xar.files[0];
    if (!distributionFile) throw new Error("no Distribution");
    expect((await xar.read(distributionFile, 1 << 20)).toString()).toBe(distribution);
  });

  it("reads raw (octet-stream) files and bounds file sizes", async () => {
    const xar = await openXar(bufferSource(writeXar(pkgFiles)));
    const helper = xar.files.find((file) => file.path === "helper.pkg/PackageInfo");
    if (!helper) throw new Error("no helper PackageInfo");
    expect(helper.encoding).toBe("application/octet-stream");
    expect((await xar.read(helper, 1 << 20)).toString()).toBe(helperPackageInfo);
    await expect(xar.read(helper, 10)).rejects.toMatchObject({ reason: "limit_exceeded" });
  });

  it("refuses a TOC that fails its checksum", async () => {
    const archive = writeXar(pkgFiles);
    archive[28 + 10] = (archive[28 + 10] as number) ^ 0xff;
    await expect(openXar(bufferSource(archive))).rejects.toBeInstanceOf(InspectError);
    const md5 = writeXar(pkgFiles, { checksum: "md5" });
    const tocEnd = 28 + Number(md5.readBigUInt64BE(8));
    md5[tocEnd] = (md5[tocEnd] as number) ^ 0xff;
    await expect(openXar(bufferSource(md5))).rejects.toMatchObject({ reason: "corrupt" });
  });

  it("bounds the header's TOC lengths", async () => {
    const archive = writeXar(pkgFiles);
    archive.writeBigUInt64BE(1n << 40n, 8);
    await expect(openXar(bufferSource(archive))).rejects.toMatchObject({ reason: "limit_exceeded" });
    const shortToc = writeXar(pkgFiles);
    shortToc.writeBigUInt64BE(10n, 16); // inflates past the declared uncompressed length
    await expect(openXar(bufferSource(shortToc))).rejects.toMatchObject({ reason: "limit_exceeded" });
    const badMagic = writeXar(pkgFiles);
    badMagic.write("xaR!", 0, "latin1");
    await expect(openXar(bufferSource(badMagic))).rejects.toMatchObject({ reason: "corrupt" });
  });

  it("refuses entry names that escape and data past the heap", async () => {
    const escaping = writeXar([{ name: "..", children: [{ name: "PackageInfo", data: appPackageInfo }] }]);
    await expect(openXar(bufferSource(escaping))).rejects.toMatchObject({ reason: "unsafe_entry" });
    const toc = `<xar><toc><file id="1"><name>Distribution</name><data><length>99999</length>
      <offset>0</offset><size>10</size><encoding style="application/octet-stream"/></data></file></toc></xar>`;
    const xar = await openXar(bufferSource(writeXar([], { checksum: "none", tocOverride: toc })));
    await expect(xar.read(xar.files[0] as never, 1 << 20)).rejects.toMatchObject({ reason: "corrupt" });
  });
});

describe("pkg", () => {
  it("reads the signed product archive", async () => {
    const info = await inspectBytes(fixture("pkg/tarmac-signed.pkg"));
    expect(info).toEqual({
      app_type: 3,
      file_type: "pkg",
      bundle_id: "com.tarmac.fixture.pkg",
      name: "Tarmac Installer",
      version: "5.6.7",
      build_number: "5.6.7",
      min_os_version: "11.0",
      icon: null,
      signing: {
        schemes: ["xar"],
        signed: true,
        certificates: [
          expect.objectContaining({ sha256: signerSha256 }),
          expect.objectContaining({ sha256: caSha256 }),
        ],
      },
      packages: expectedPackages,
    });
  });

  it("reports a signature that does not verify", async () => {
    const original = fixture("pkg/tarmac-signed.pkg");
    const xar = await openXar(bufferSource(original));
    expect(xar.signature?.valid).toBe(true);
    // The fixture's certificates with signature bytes their key did not make.
    const forged = writeXar(pkgFiles, {
      signer: {
        certificates: xar.signature?.certificates ?? [],
        size: 256,
        sign: () => Buffer.alloc(256, 7),
      },
    });
    const info = await inspectBytes(forged);
    expect(info.signing?.schemes).toEqual(["xar"]);
    expect(info.signing?.signed).toBe(false);
  });

  it("reads a component package with only a PackageInfo", async () => {
    const info = await inspectBytes(writeXar([{ name: "PackageInfo", data: appPackageInfo }]));
    expect(info).toMatchObject({
      bundle_id: "com.tarmac.fixture.pkg.app",
      name: null,
      version: "5.6.7",
      min_os_version: null,
      signing: { schemes: [], signed: false, certificates: [] },
      packages: [expectedPackages[0]],
    });
  });

  it("takes packages from pkg-refs when the components carry no PackageInfo", async () => {
    const info = await inspectBytes(writeXar([{ name: "Distribution", data: distribution }]));
    expect(info.packages).toEqual([
      { identifier: "com.tarmac.fixture.pkg.app", version: "5.6.7", install_location: null },
      { identifier: "com.tarmac.fixture.pkg.helper", version: "1.0", install_location: null },
    ]);
  });

  it("refuses an archive without Distribution or PackageInfo", async () => {
    await expect(inspectBytes(writeXar([{ name: "README", data: "hi" }]))).rejects.toMatchObject({
      reason: "missing_manifest",
    });
  });

  it("turns truncations into InspectError", async () => {
    const data = fixture("pkg/tarmac-signed.pkg");
    for (let length = 0; length < data.length; length += 97) {
      await expect(inspectBytes(data.subarray(0, length))).rejects.toBeInstanceOf(InspectError);
    }
  });
});
