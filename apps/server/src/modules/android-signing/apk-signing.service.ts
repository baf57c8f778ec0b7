import path from "node:path";
import { InspectError, inspect } from "@tarmac/inspector";
import type { ApplicationService } from "../application/application.service.ts";
import { InstallableApkError, type InstallableApkPort } from "../upload/installable-apk-port.ts";
import type { AabToApkConverter } from "./aab-to-apk.adapter.ts";
import { signApk } from "./lib/apk-signer.ts";
import { ApkFormatError } from "./lib/apk-zip.ts";
import { KeystoreError } from "./lib/keystore.ts";
import { type KeySource, NoSigningKeyError, type SigningKeyChain } from "./signing-key-chain.ts";

/** Below this, Android has no minSdkVersion to speak of (an APK without one means API 1). */
const defaultMinSdk = 1;

/**
 * Signs Android builds with the key the app's key chain gives: an uploaded APK as it is, an
 * AAB after converting it to a universal APK. Failures come out as InstallableApkError 8 (no
 * key) or 9 (the file or the conversion failed), with the reason in the message.
 */
export class ApkSigningService implements InstallableApkPort {
  constructor(
    private readonly deps: {
      keys: SigningKeyChain;
      converter: AabToApkConverter;
      applications: Pick<ApplicationService, "findApp">;
    },
  ) {}

  get available(): boolean {
    return this.deps.converter.available;
  }

  async fromBundle(
    build: { organizationId: number; applicationId: number },
    bundlePath: string,
    outputPath: string,
    workDir: string,
  ): Promise<void> {
    if (!this.deps.converter.available) {
      throw new InstallableApkError(9, "no AAB converter is available on this instance");
    }
    const unsigned = path.join(workDir, "unsigned.apk");
    try {
      await this.deps.converter.convert(bundlePath, unsigned);
    } catch (error) {
      throw new InstallableApkError(9, `the bundle could not be converted: ${(error as Error).message}`);
    }
    await this.signApk(build, unsigned, outputPath);
  }

  /** Signs the APK at `inputPath` with the app's key into `outputPath`; returns where the key came from. */
  async signApk(
    build: { organizationId: number; applicationId: number },
    inputPath: string,
    outputPath: string,
  ): Promise<KeySource> {
    const app = await this.deps.applications.findApp(build.organizationId, build.applicationId);
    if (!app) throw new InstallableApkError(9, "the app was deleted");
    let resolved: Awaited<ReturnType<SigningKeyChain["resolve"]>>;
    try {
      resolved = await this.deps.keys.resolve(build.organizationId, build.applicationId, app.title);
    } catch (error) {
      if (error instanceof NoSigningKeyError) throw new InstallableApkError(8, error.message);
      if (error instanceof KeystoreError)
        throw new InstallableApkError(8, `the keystore no longer opens: ${error.message}`);
      throw error;
    }
    try {
      const minSdkVersion = await minSdkOf(inputPath);
      await signApk(inputPath, outputPath, resolved.key, { minSdkVersion });
    } catch (error) {
      if (error instanceof ApkFormatError || error instanceof InspectError) {
        throw new InstallableApkError(9, `the APK could not be signed: ${error.message}`);
      }
      throw error;
    }
    return resolved.source;
  }
}

/** The APK's minSdkVersion decides which JAR signature old devices need. */
async function minSdkOf(apkPath: string): Promise<number> {
  const info = await inspect(apkPath, { fileName: "build.apk" });
  const value = Number.parseInt(info.min_os_version ?? "", 10);
  return Number.isFinite(value) && value > 0 ? value : defaultMinSdk;
}
