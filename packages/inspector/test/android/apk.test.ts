import { describe, expect, it } from "vitest";
import { inspectApk } from "../../src/formats/apk.ts";
import { bufferSource, fileSource } from "../../src/source.ts";
import type { BuildInfo } from "../../src/types.ts";
import { androidFixture, fixtureCertificate, readAndroidFixture } from "./fixture-paths.ts";

async function inspectFixture(name: string): Promise<BuildInfo> {
  const source = await fileSource(androidFixture(name));
  try {
    return await inspectApk(source, { fileName: name }, "apk");
  } finally {
    await source.close?.();
  }
}

function withoutIconBytes(info: BuildInfo) {
  return { ...info, icon: info.icon && { width: info.icon.width, height: info.icon.height } };
}

describe("inspectApk", () => {
  // aapt dump badging: package: name='dev.tarmac.demo' versionCode='42' versionName='1.4.2'
  //   compileSdkVersion='29'; sdkVersion:'21'; targetSdkVersion:'33'; application-label:'Tarmac Demo',
  //   -de:'Tarmac-Demo', -fr:'Démo Tarmac', -pt-BR:'Demonstração Tarmac'; uses-permission INTERNET, CAMERA;
  //   uses-feature-not-required camera, uses-feature touchscreen; icon res/mipmap-anydpi-v26/ic_launcher.xml.
  // apksigner verify: v1 true, v2 true, v3 true; signer DN CN=Tarmac Fixtures, O=Tarmac, C=US;
  //   SHA-256 02f357467854a3daab314bd582c6313506ab45dfbf5771b2b99410f84e225de4.
  it("reads the localized, v1+v2+v3 signed APK", async () => {
    const info = await inspectFixture("localized.apk");
    expect(withoutIconBytes(info)).toEqual({
      app_type: 0,
      file_type: "apk",
      bundle_id: "dev.tarmac.demo",
      name: "Tarmac Demo",
      version: "1.4.2",
      build_number: "42",
      min_os_version: "21",
      icon: { width: 192, height: 192 },
      signing: { schemes: ["v1", "v2", "v3"], signed: true, certificates: [fixtureCertificate] },
      target_sdk_version: 33,
      compile_sdk_version: 29,
      labels: { "": "Tarmac Demo", de: "Tarmac-Demo", fr: "Démo Tarmac", "pt-BR": "Demonstração Tarmac" },
      permissions: ["android.permission.INTERNET", "android.permission.CAMERA"],
      features: ["android.hardware.camera", "android.hardware.touchscreen"],
      native_abis: [],
      debuggable: false,
    });
  });

  it("takes the adaptive icon's largest PNG fallback (mipmap-xxxhdpi)", async () => {
    const info = await inspectFixture("localized.apk");
    const apk = await readAndroidFixture("localized.apk");
    expect(info.icon?.png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(info.icon?.png.length).toBe(100);
    // The same bytes as the stored res/mipmap-xxxhdpi-v4/ic_launcher.png.
    expect(apk.includes(info.icon?.png ?? Buffer.alloc(1))).toBe(true);
  });

  // aapt dump badging: package: name='dev.tarmac.modern' versionCode='2000' versionName='2.0.0-beta.1'
  //   compileSdkVersion='29'; sdkVersion:'26'; targetSdkVersion:'29'; application-label:'Modern App';
  //   application-icon-240:'res/mipmap-hdpi-v4/ic_launcher.png'; application-debuggable;
  //   uses-permission ACCESS_NETWORK_STATE; native-code: 'arm64-v8a' 'x86_64'.
  // apksigner verify: v1 false, v2 true, v3 true.
  it("reads the minSdk 26, v2+v3-only APK with native libraries", async () => {
    const info = await inspectFixture("modern.apk");
    expect(withoutIconBytes(info)).toEqual({
      app_type: 0,
      file_type: "apk",
      bundle_id: "dev.tarmac.modern",
      name: "Modern App",
      version: "2.0.0-beta.1",
      build_number: "2000",
      min_os_version: "26",
      icon: { width: 72, height: 72 },
      signing: { schemes: ["v2", "v3"], signed: true, certificates: [fixtureCertificate] },
      target_sdk_version: 29,
      compile_sdk_version: 29,
      labels: { "": "Modern App" },
      permissions: ["android.permission.ACCESS_NETWORK_STATE"],
      features: [],
      native_abis: ["arm64-v8a", "x86_64"],
      debuggable: true,
    });
  });

  // aapt dump badging: package: name='dev.tarmac.adaptive' versionCode='5' versionName='0.5';
  //   sdkVersion:'26'; targetSdkVersion:'29'; application-label:'Adaptive';
  //   icon='res/mipmap-anydpi-v26/ic_launcher.xml' (no bitmap fallback). apksigner: v2 true, v3 true.
  it("composes an adaptive icon that has no bitmap fallback from its layers", async () => {
    const info = await inspectFixture("adaptive.apk");
    expect(withoutIconBytes(info)).toEqual({
      app_type: 0,
      file_type: "apk",
      bundle_id: "dev.tarmac.adaptive",
      name: "Adaptive",
      version: "0.5",
      build_number: "5",
      min_os_version: "26",
      icon: { width: 288, height: 288 },
      signing: { schemes: ["v2", "v3"], signed: true, certificates: [fixtureCertificate] },
      target_sdk_version: 29,
      compile_sdk_version: 29,
      labels: { "": "Adaptive" },
      permissions: [],
      features: [],
      native_abis: [],
      debuggable: false,
    });
  });

  // aapt dump badging: package: name='dev.tarmac.bare' versionCode='' versionName='' compileSdkVersion='29';
  //   no sdkVersion line; uses-permission lines are only implied ones. apksigner: DOES NOT VERIFY (unsigned).
  // aapt prints application label='' because the APK has no resource table; the manifest holds "Bare".
  it("accepts an unsigned APK without versionCode, versionName or icon", async () => {
    const info = await inspectFixture("bare.apk");
    expect(info).toEqual({
      app_type: 0,
      file_type: "apk",
      bundle_id: "dev.tarmac.bare",
      name: "Bare",
      version: null,
      build_number: null,
      min_os_version: null,
      icon: null,
      signing: { schemes: [], signed: false, certificates: [] },
      target_sdk_version: null,
      compile_sdk_version: 29,
      labels: { "": "Bare" },
      permissions: [],
      features: [],
      native_abis: [],
      debuggable: false,
    });
  });

  it("reads through any random-access source, not only files", async () => {
    const info = await inspectApk(
      bufferSource(await readAndroidFixture("modern.apk")),
      { fileName: "m.apk" },
      "apk",
    );
    expect(info.bundle_id).toBe("dev.tarmac.modern");
  });

  it("reports signed=false when a signer's signed data no longer matches its signature", async () => {
    const apk = Buffer.from(await readAndroidFixture("modern.apk"));
    const magic = apk.lastIndexOf("APK Sig Block 42");
    const blockSize = Number(apk.readBigUInt64LE(magic - 8));
    const pairs = magic + 16 - blockSize;
    // First pair: u64 length, u32 id, then signers, signer, signed data, digests, digest record,
    // algorithm id, digest length (u32 each) and the digest bytes; one digest byte is flipped.
    const digestByte = pairs + 12 + 4 * 7 + 2;
    apk[digestByte] = (apk[digestByte] ?? 0) ^ 0xff;
    const info = await inspectApk(bufferSource(apk), { fileName: "m.apk" }, "apk");
    expect(info.signing).toEqual({
      schemes: ["v2", "v3"],
      signed: false,
      certificates: [fixtureCertificate],
    });
  });
});
