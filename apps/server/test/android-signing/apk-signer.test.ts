import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signApk } from "../../src/modules/android-signing/lib/apk-signer.ts";
import { certificateFingerprint, openKeystore } from "../../src/modules/android-signing/lib/keystore.ts";
import { fixturePath } from "../helpers/app-factories.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { apksignerVerify, badging, hasApksigner } from "./apksigner-check.ts";
import { makeKeystore } from "./signing-keys.ts";

const keys = {
  RSA: makeKeystore({ type: "PKCS12", keyAlgorithm: "RSA" }),
  EC: makeKeystore({ type: "PKCS12", keyAlgorithm: "EC" }),
  JKS: makeKeystore({ type: "JKS", keyAlgorithm: "RSA" }),
};

function open(which: keyof typeof keys) {
  const ks = keys[which];
  return openKeystore({
    file: ks.file,
    storePassword: ks.storePassword,
    keyAlias: ks.keyAlias,
    keyPassword: ks.keyPassword,
  }).key;
}

/** Local header offsets and data starts of stored entries, read by zipalign's own checker. */
function zipalignCheck(apk: string): string {
  return execFileSync("zipalign", ["-c", "-v", "-p", "4", apk], { encoding: "utf8" });
}

describe.runIf(hasApksigner)("APK signer, verified by apksigner", () => {
  for (const algorithm of ["RSA", "EC"] as const) {
    it(`signs v1 + v2 + v3 with an ${algorithm} key (minSdk 21)`, async () => {
      const dir = tempDir("sign");
      const output = path.join(dir, "signed.apk");
      const key = open(algorithm);
      await signApk(fixturePath("android/localized.apk"), output, key, { minSdkVersion: 21 });
      const verified = apksignerVerify(output);
      expect(verified.output).toContain("Verified using v1 scheme (JAR signing): true");
      expect(verified.output).toContain("Verified using v2 scheme (APK Signature Scheme v2): true");
      expect(verified.output).toContain("Verified using v3 scheme (APK Signature Scheme v3): true");
      expect(verified.ok).toBe(true);
      const fingerprint = certificateFingerprint(key.certificates[0] as Buffer)
        .replaceAll(":", "")
        .toLowerCase();
      expect(verified.output).toContain(`certificate SHA-256 digest: ${fingerprint}`);
      expect(badging(output)).toBe(badging(fixturePath("android/localized.apk")));
      expect(zipalignCheck(output)).toMatch(/Verification successful/);
    });
  }

  it("drops the old signature and re-signs an APK apksigner signed (minSdk 26: v2 + v3 only)", async () => {
    const dir = tempDir("sign");
    const output = path.join(dir, "resigned.apk");
    const key = open("JKS");
    await signApk(fixturePath("android/modern.apk"), output, key, { minSdkVersion: 26 });
    const verified = apksignerVerify(output);
    expect(verified.ok).toBe(true);
    expect(verified.output).toContain("Verified using v1 scheme (JAR signing): false");
    expect(verified.output).toContain("Verified using v2 scheme (APK Signature Scheme v2): true");
    expect(verified.output).toContain("Verified using v3 scheme (APK Signature Scheme v3): true");
    expect(verified.output).toContain("Number of signers: 1");
    expect(verified.output).toContain("CN=Tarmac Test, O=Tarmac");
    const names = execFileSync("unzip", ["-Z1", output], { encoding: "utf8" }).split("\n");
    expect(names.filter((name) => name.startsWith("META-INF/"))).toEqual([]);
  });

  it("uses SHA-1 JAR digests below API 18, as old Android needs", async () => {
    const dir = tempDir("sign");
    const output = path.join(dir, "old.apk");
    await signApk(fixturePath("android/bare.apk"), output, open("RSA"), { minSdkVersion: 1 });
    const verified = apksignerVerify(output);
    expect(verified.output).toContain("Verified using v1 scheme (JAR signing): true");
    expect(verified.ok).toBe(true);
    const manifest = execFileSync("unzip", ["-p", output, "META-INF/MANIFEST.MF"], { encoding: "utf8" });
    expect(manifest).toContain("SHA1-Digest: ");
  });

  it("aligns stored native libraries to 16 KiB and other stored entries to 4 bytes", async () => {
    const dir = tempDir("sign");
    const unsigned = path.join(dir, "native.apk");
    execFileSync("cp", [fixturePath("android/localized.apk"), unsigned]);
    const lib = path.join(dir, "lib", "arm64-v8a");
    execFileSync("mkdir", ["-p", lib]);
    execFileSync("head", ["-c", "5000", "/bin/true"], { stdio: ["ignore", "pipe", "pipe"] });
    execFileSync("sh", ["-c", `head -c 5001 /bin/true > ${lib}/libdemo.so && printf abc > ${dir}/odd.bin`]);
    execFileSync("zip", ["-0", "-X", "-q", unsigned, "lib/arm64-v8a/libdemo.so", "odd.bin"], { cwd: dir });
    const output = path.join(dir, "signed.apk");
    await signApk(unsigned, output, open("RSA"), { minSdkVersion: 21 });
    expect(apksignerVerify(output).ok).toBe(true);
    const check = execFileSync("zipalign", ["-c", "-v", "-p", "4", output], { encoding: "utf8" });
    expect(check).toMatch(/Verification successful/);
    const data = readFileSync(output);
    const name = Buffer.from("lib/arm64-v8a/libdemo.so");
    const at = data.indexOf(Buffer.concat([name]));
    const start = at + name.length + data.readUInt16LE(at - 2);
    expect(start % 16384).toBe(0);
  });
});
