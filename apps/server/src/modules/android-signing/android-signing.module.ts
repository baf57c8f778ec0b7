import { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { AppModule } from "../../platform/module.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ApplicationServices } from "../application/application.module.ts";
import type { OrganizationServices } from "../organization/organization.module.ts";
import type { StorageServices } from "../storage/storage.module.ts";
import type { InstallableApkPort } from "../upload/installable-apk-port.ts";
import type { UploadServices } from "../upload/upload.module.ts";
import { aabToApkConverter } from "./aab-to-apk.adapter.ts";
import { createSigningJobs } from "./android-signing.jobs.ts";
import { registerAndroidSigningRoutes } from "./android-signing.routes.ts";
import { ApkSigningService } from "./apk-signing.service.ts";
import { BuildSigningService } from "./build-signing.service.ts";
import { KeystoreService } from "./keystore.service.ts";
import { instanceKeystoreFromConfig, SigningKeyChain } from "./signing-key-chain.ts";

/** Purpose of the SecretBox key that seals keystores and generated keys. */
const signingSecretPurpose = "android-signing-keys";

/**
 * Android signing: keystores of apps and organizations, the key chain (app, organization,
 * instance, generated), the APK signer, and signing builds (AABs converted first).
 */
export function createAndroidSigningModule(
  platform: Platform,
  deps: OrganizationServices &
    ApplicationServices &
    Pick<StorageServices, "storageResolver"> &
    Pick<UploadServices, "uploadTasks">,
) {
  const { db } = platform.database;
  const { config } = platform;
  const box = new SecretBox(config.SECRET_KEY, signingSecretPurpose);
  const keys = new SigningKeyChain({
    db,
    box,
    instance: instanceKeystoreFromConfig(config),
    generateKeys: config.ANDROID_GENERATED_KEYS,
  });
  const apks = new ApkSigningService({
    keys,
    converter: aabToApkConverter(config),
    applications: deps.applications,
  });
  const keystores = new KeystoreService({
    db,
    box,
    membership: deps.membership,
    applications: deps.applications,
    builds: deps.builds,
    keys,
  });
  // The worker is built after its job (it queues it); the job calls it by name.
  let signing: BuildSigningService | null = null;
  const jobs = createSigningJobs({ run: (taskId) => (signing as BuildSigningService).run(taskId) });
  signing = new BuildSigningService({
    db,
    applications: deps.applications,
    builds: deps.builds,
    usage: deps.usage,
    storage: deps.storageResolver,
    jobs: platform.jobs,
    tasks: deps.uploadTasks,
    apks,
    keys,
    deleteFiles: deps.deleteFiles,
    signJob: jobs.signBuild,
  });
  const buildSigning = signing;
  return {
    services: { androidApks: apks, keystores },
    routes: (app) => registerAndroidSigningRoutes(app, { keystores, signing: buildSigning }),
    jobs: Object.values(jobs),
  } satisfies AppModule;
}

export type AndroidSigningServices = ReturnType<typeof createAndroidSigningModule>["services"];

/**
 * The upload module's port for making uploaded AABs installable. The module is built after the
 * upload module, so the port reaches it through `signing` only when a bundle is converted.
 */
export function installableApkPort(
  config: { BUNDLETOOL_JAR?: string; JAVA_BIN: string },
  signing: () => ApkSigningService,
): InstallableApkPort {
  return {
    available: aabToApkConverter(config).available,
    fromBundle: (...args) => signing().fromBundle(...args),
  };
}
