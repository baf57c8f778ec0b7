import { z } from "zod";
import { uploadTaskState } from "./application.ts";

/** A signing certificate as shown: never the key, only what identifies it. */
export const signingCertificate = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    /** Upper-case hex with colons, as keytool and apksigner print it. */
    sha256: z.string(),
    valid_from: z.string(),
    valid_until: z.string(),
  })
  .meta({ id: "SigningCertificate" });
export type SigningCertificate = z.infer<typeof signingCertificate>;

/** app: the app's own keystore; organization; instance (the AAB_* settings); generated: Tarmac's key, internal testing only. */
export const signingKeySources = ["app", "organization", "instance", "generated"] as const;
export type SigningKeySource = (typeof signingKeySources)[number];

const keystoreFields = {
  /** A keystore of its own was uploaded (the file and passwords are never sent back). */
  configured: z.boolean(),
  file_name: z.string(),
  store_type: z.enum(["JKS", "PKCS12"]).nullable(),
  key_alias: z.string(),
  certificate: signingCertificate.nullable(),
  updated_at: z.string().nullable(),
  /** Things to know about the saved keystore, e.g. that it is not the key that signed earlier builds. */
  warnings: z.array(z.string()),
};

/** `GET/PUT /api/app-keystore/{id}/` (`id` is the app's). */
export const appKeystore = z
  .object({
    app: z.number().int(),
    ...keystoreFields,
    /** The key that signs the app's builds now; null when none is available (error 8 on signing). */
    effective_source: z.enum(signingKeySources).nullable(),
    /** The certificate of that key, when it is known before signing. */
    effective_certificate: signingCertificate.nullable(),
    /** Builds are signed with a key Tarmac generated: fine for testers, not for the store. */
    internal_testing_only: z.boolean(),
  })
  .meta({ id: "AppKeystore" });
export type AppKeystore = z.infer<typeof appKeystore>;

/** `GET/PUT /api/orgs-keystore/{id}/` (`id` is the organization's): the key for apps without their own. */
export const organizationKeystore = z
  .object({ organization: z.number().int(), ...keystoreFields })
  .meta({ id: "OrganizationKeystore" });
export type OrganizationKeystore = z.infer<typeof organizationKeystore>;

const required = "This field is required.";
const blank = "This field may not be blank.";

/** The text fields of the multipart PUT; the file is `keystore_file`. */
export const keystoreInput = z.object({
  store_password: z.string({ error: required }).min(1, blank).max(1000),
  key_alias: z.string({ error: required }).trim().min(1, blank).max(255),
  /** Empty: the store password (PKCS#12 keys always use it). */
  key_password: z.string().max(1000).default(""),
});
export type KeystoreInput = z.infer<typeof keystoreInput>;

export const resignAndroidBuildInput = z.object({
  build_id: z.coerce.number({ error: required }).int().positive(),
});
export type ResignAndroidBuildInput = z.infer<typeof resignAndroidBuildInput>;

export const resignAndroidBuildQuery = z.object({
  build_id: z.coerce.number({ error: required }).int().positive(),
});

/** `GET /api/app-resign-aab-build/?build_id=`: the latest signing task of the build and its installable APK. */
export const androidBuildSigning = z
  .object({
    build_id: z.number().int(),
    task_id: z.string().nullable(),
    state: uploadTaskState.nullable(),
    error_code: z.number().int().nullable(),
    detail: z.string(),
    /** A signed APK testers can install exists for the build. */
    has_universal_apk: z.boolean(),
    effective_source: z.enum(signingKeySources).nullable(),
    internal_testing_only: z.boolean(),
  })
  .meta({ id: "AndroidBuildSigning" });
export type AndroidBuildSigning = z.infer<typeof androidBuildSigning>;
