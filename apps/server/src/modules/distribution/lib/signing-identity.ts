import { generateKeyPair, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import forge from "node-forge";

/** The certificate and key that sign the profile-service .mobileconfig sent to devices. */
export interface SigningIdentity {
  certPem: string;
  keyPem: string;
  certificate: forge.pki.Certificate;
  privateKey: forge.pki.rsa.PrivateKey;
}

export class SigningIdentityError extends Error {
  override readonly name = "SigningIdentityError";
}

export interface SigningIdentityOptions {
  /** A configured certificate (PEM); iOS then shows the profile as verified if it chains to a trusted CA. */
  certPath?: string | null;
  keyPath?: string | null;
  dataDir: string;
  organizationName: string;
}

/**
 * Uses the configured certificate and key, or a self-signed pair generated once under
 * `<dataDir>/udid-signing/` and reused, so every instance sharing the data dir signs alike.
 */
export async function loadOrCreateSigningIdentity(options: SigningIdentityOptions): Promise<SigningIdentity> {
  if (options.certPath || options.keyPath) {
    if (!options.certPath || !options.keyPath) {
      throw new SigningIdentityError("Both the signing certificate and its private key must be configured.");
    }
    return parseIdentity(await readFile(options.certPath, "utf8"), await readFile(options.keyPath, "utf8"));
  }
  const dir = path.join(options.dataDir, "udid-signing");
  const existing = await readPair(dir);
  if (existing) return existing;

  // Written into a private temporary directory then renamed: a concurrent instance either wins
  // the rename or finds the complete pair, never a certificate without its key.
  const { certPem, keyPem } = await generateSelfSigned(options.organizationName);
  await mkdir(options.dataDir, { recursive: true });
  const tmp = path.join(options.dataDir, `.udid-signing-${randomBytes(6).toString("hex")}`);
  await mkdir(tmp, { mode: 0o700 });
  try {
    await writeFile(path.join(tmp, "key.pem"), keyPem, { mode: 0o600 });
    await writeFile(path.join(tmp, "cert.pem"), certPem, { mode: 0o644 });
    await rename(tmp, dir);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    const raced = await readPair(dir);
    if (!raced) throw new SigningIdentityError(`${dir} exists without cert.pem and key.pem.`);
    return raced;
  }
  return parseIdentity(certPem, keyPem);
}

async function readPair(dir: string): Promise<SigningIdentity | null> {
  try {
    const certPem = await readFile(path.join(dir, "cert.pem"), "utf8");
    const keyPem = await readFile(path.join(dir, "key.pem"), "utf8");
    return parseIdentity(certPem, keyPem);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseIdentity(certPem: string, keyPem: string): SigningIdentity {
  let certificate: forge.pki.Certificate;
  let privateKey: forge.pki.rsa.PrivateKey;
  try {
    certificate = forge.pki.certificateFromPem(certPem);
    privateKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  } catch (error) {
    throw new SigningIdentityError(`Unreadable signing certificate or key (RSA PEM expected): ${error}`);
  }
  const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey;
  if (!privateKey.n || publicKey.n.compareTo(privateKey.n) !== 0) {
    throw new SigningIdentityError("The signing private key does not match the certificate.");
  }
  if (certificate.validity.notAfter < new Date()) {
    throw new SigningIdentityError("The signing certificate has expired.");
  }
  return { certPem, keyPem, certificate, privateKey };
}

const generateRsa = promisify(generateKeyPair);

async function generateSelfSigned(organizationName: string): Promise<{ certPem: string; keyPem: string }> {
  // Node's native generator: forge's pure-JS RSA-2048 generation takes seconds of CPU.
  const { privateKey: keyPem } = await generateRsa("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial: the first byte's high bit is cleared.
  cert.serialNumber = `0${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  const name = [
    { name: "commonName", value: `${organizationName.slice(0, 48) || "Tarmac"} device enrollment` },
    { name: "organizationName", value: organizationName.slice(0, 64) || "Tarmac" },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem };
}
