import { describe, expect, it } from "vitest";
import { inspectAab } from "../../src/formats/aab.ts";
import { bufferSource } from "../../src/source.ts";
import { fixtureCertificate, readAndroidFixture } from "./fixture-paths.ts";

describe("inspectAab", () => {
  // The base module converted back with `aapt2 convert --output-format binary`, then aapt dump badging:
  //   package: name='dev.tarmac.demo' versionCode='42' versionName='1.4.2' compileSdkVersion='29';
  //   sdkVersion:'21'; targetSdkVersion:'33'; application-label:'Tarmac Demo', -de:'Tarmac-Demo',
  //   -fr:'Démo Tarmac', -pt-BR:'Demonstração Tarmac'; uses-permission INTERNET, CAMERA.
  // keytool -printcert -jarfile: Owner CN=Tarmac Fixtures, O=Tarmac, C=US; valid from
  //   Mon Jan 01 00:00:00 UTC 2024 until Fri May 19 00:00:00 UTC 2051; SHA256 02:F3:57:46:...:5D:E4.
  it("reads the bundle's protobuf manifest, resources, config and signature", async () => {
    const info = await inspectAab(
      bufferSource(await readAndroidFixture("bundle.aab")),
      { fileName: "b.aab" },
      "aab",
    );
    expect({ ...info, icon: info.icon && { width: info.icon.width, height: info.icon.height } }).toEqual({
      app_type: 0,
      file_type: "aab",
      bundle_id: "dev.tarmac.demo",
      name: "Tarmac Demo",
      version: "1.4.2",
      build_number: "42",
      min_os_version: "21",
      icon: { width: 192, height: 192 },
      signing: { schemes: ["v1"], signed: true, certificates: [fixtureCertificate] },
      target_sdk_version: 33,
      compile_sdk_version: 29,
      labels: { "": "Tarmac Demo", de: "Tarmac-Demo", fr: "Démo Tarmac", "pt-BR": "Demonstração Tarmac" },
      permissions: ["android.permission.INTERNET", "android.permission.CAMERA"],
      features: ["android.hardware.camera", "android.hardware.touchscreen"],
      native_abis: ["arm64-v8a", "armeabi-v7a"],
      debuggable: false,
      bundletool_version: "1.15.6",
    });
  });
});
