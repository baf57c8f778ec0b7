import { createPrivateKey } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { findSigningKey, insertGeneratedKey, type SigningKeyRow } from "./android-signing.repo.ts";
import { generateSigningKey } from "./lib/generated-key.ts";
import { type KeystoreSecret, openKeystore, summarizeCertificate } from "./lib/keystore.ts";
import type { SigningKey } from "./lib/signing-key.ts";

/** Where the key that signs an app's Android builds comes from, in the order they are tried. */
export type KeySource = "app" | "organization" | "instance" | "generated";

/** What is sealed in a row: a keystore with what opens it, or a key Tarmac generated. */
type SealedKey =
  | { kind: "keystore"; file: string; storePassword: string; keyAlias: string; keyPassword: string }
  | { kind: "key"; privateKey: string; certificates: string[] };

export interface InstanceKeystore {
  path: string;
  storePassword: string;
  keyAlias: string;
  keyPassword: string;
}

export class NoSigningKeyError extends Error {}

export function instanceKeystoreFromConfig(config: {
  AAB_KEYSTORE?: string;
  AAB_KEYSTORE_PASSWORD?: string;
  AAB_KEY_ALIAS?: string;
  AAB_KEY_PASSWORD?: string;
}): InstanceKeystore | null {
  if (!config.AAB_KEYSTORE || !config.AAB_KEYSTORE_PASSWORD || !config.AAB_KEY_ALIAS) return null;
  return {
    path: config.AAB_KEYSTORE,
    storePassword: config.AAB_KEYSTORE_PASSWORD,
    keyAlias: config.AAB_KEY_ALIAS,
    keyPassword: config.AAB_KEY_PASSWORD ?? config.AAB_KEYSTORE_PASSWORD,
  };
}

export function sealKeystore(box: SecretBox, secret: KeystoreSecret): string {
  const sealed: SealedKey = { kind: "keystore", ...secret, file: secret.file.toString("base64") };
  return box.seal(JSON.stringify(sealed));
}

export function keyValuesOf(key: SigningKey) {
  const summary = summarizeCertificate(key.certificates[0] as Buffer);
  return {
    certificateSubject: summary.subject,
    certificateIssuer: summary.issuer,
    certificateSha256: summary.sha256,
    validFrom: summary.validFrom,
    validUntil: summary.validUntil,
  };
}

/**
 * The key chain: the app's own keystore, else its organization's, else the instance's (AAB_*
 * settings), else — when allowed — a key generated for the app and kept, for internal testing.
 */
export class SigningKeyChain {
  constructor(
    private readonly deps: {
      db: Database;
      box: SecretBox;
      instance: InstanceKeystore | null;
      generateKeys: boolean;
    },
  ) {}

  /** Whether every app has some key: a configured instance keystore or generated keys. */
  get alwaysHasKey(): boolean {
    return this.deps.instance !== null || this.deps.generateKeys;
  }

  /** The source that would sign the app now, without generating anything. */
  async currentSource(
    organizationId: number,
    applicationId: number,
  ): Promise<{ source: KeySource | null; row: SigningKeyRow | null }> {
    const { db } = this.deps;
    const own = await findSigningKey(db, organizationId, applicationId, "uploaded");
    if (own) return { source: "app", row: own };
    const organization = await findSigningKey(db, organizationId, null, "uploaded");
    if (organization) return { source: "organization", row: organization };
    if (this.deps.instance) return { source: "instance", row: null };
    const generated = await findSigningKey(db, organizationId, applicationId, "generated");
    if (generated || this.deps.generateKeys) return { source: "generated", row: generated };
    return { source: null, row: null };
  }

  /** The key that signs the app's builds now; a generated one is made (and kept) on first use. */
  async resolve(
    organizationId: number,
    applicationId: number,
    appTitle: string,
  ): Promise<{ key: SigningKey; source: KeySource }> {
    const { source, row } = await this.currentSource(organizationId, applicationId);
    if (source === null) {
      throw new NoSigningKeyError("no Android signing key is configured for this app");
    }
    if (row) return { key: this.open(row), source };
    if (source === "instance") return { key: await this.openInstance(), source };
    const key = generateSigningKey(appTitle);
    const sealed: SealedKey = {
      kind: "key",
      privateKey: key.privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"),
      certificates: key.certificates.map((der) => der.toString("base64")),
    };
    const kept = await insertGeneratedKey(this.deps.db, organizationId, applicationId, {
      sealed: this.deps.box.seal(JSON.stringify(sealed)),
      ...keyValuesOf(key),
    });
    return { key: this.open(kept), source };
  }

  private open(row: SigningKeyRow): SigningKey {
    const sealed = JSON.parse(this.deps.box.open(row.sealed)) as SealedKey;
    if (sealed.kind === "keystore") {
      return openKeystore({ ...sealed, file: Buffer.from(sealed.file, "base64") }).key;
    }
    const privateKey = createPrivateKey({
      key: Buffer.from(sealed.privateKey, "base64"),
      format: "der",
      type: "pkcs8",
    });
    const certificates = sealed.certificates.map((der) => Buffer.from(der, "base64"));
    return { privateKey, certificates, algorithm: privateKey.asymmetricKeyType === "ec" ? "EC" : "RSA" };
  }

  private async openInstance(): Promise<SigningKey> {
    const instance = this.deps.instance as InstanceKeystore;
    const file = await readFile(instance.path);
    return openKeystore({ file, ...instance, keyPassword: instance.keyPassword }).key;
  }
}
