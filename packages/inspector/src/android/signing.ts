import { findSignerCertificate, parseSignedData, verifySignedData } from "../cert/cms.ts";
import { summarizeCertificate } from "../cert/x509.ts";
import type { ByteSource } from "../source.ts";
import type { CertificateInfo, SigningInfo } from "../types.ts";
import type { OpenedZip } from "../zip/types.ts";
import { readSigningBlock } from "./signing-block.ts";

const maxSignatureFileBytes = 4 * 1024 * 1024;

interface SchemeResult {
  certificates: Buffer[];
  valid: boolean;
}

/**
 * JAR signing (v1): each META-INF/NAME.RSA|DSA|EC is a PKCS#7 signature over META-INF/NAME.SF.
 * The per-entry digests of MANIFEST.MF are not recomputed (that would read every entry).
 */
export async function readJarSignature(zip: OpenedZip): Promise<SchemeResult | null> {
  const blocks = zip.entries.filter((e) => /^META-INF\/[^/]+\.(RSA|DSA|EC)$/i.test(e.name));
  if (blocks.length === 0) return null;
  const certificates: Buffer[] = [];
  let valid = true;
  for (const block of blocks) {
    const data = parseSignedData(await zip.read(block, maxSignatureFileBytes));
    const sfEntry = zip.find(block.name.replace(/\.[^.]+$/, ".SF"));
    const sf = sfEntry ? await zip.read(sfEntry, maxSignatureFileBytes) : null;
    valid &&= sf !== null && verifySignedData(data, sf);
    for (const signer of data.signers) {
      const der = findSignerCertificate(data, signer);
      if (der) certificates.push(der);
    }
    if (data.signers.length === 0) certificates.push(...data.certificates);
  }
  return { certificates, valid };
}

function summarizeUnique(ders: Buffer[]): CertificateInfo[] {
  const seen = new Set<string>();
  const infos: CertificateInfo[] = [];
  for (const der of ders) {
    const info = summarizeCertificate(der);
    if (seen.has(info.sha256)) continue;
    seen.add(info.sha256);
    infos.push(info);
  }
  return infos;
}

/**
 * Which APK signature schemes are present, whether they verify (signatures over their signed
 * data; whole-file digests are not recomputed) and the signer certificates, newest scheme first.
 */
export async function readApkSigning(source: ByteSource, zip: OpenedZip): Promise<SigningInfo> {
  const block = await readSigningBlock(source, zip.centralDirectoryOffset);
  const v1 = await readJarSignature(zip);
  const schemes: string[] = [];
  const results: SchemeResult[] = [];
  if (v1) {
    schemes.push("v1");
    results.push(v1);
  }
  for (const [name, signers] of [
    ["v2", block.v2],
    ["v3", block.v3],
  ] as const) {
    if (signers.length === 0) continue;
    schemes.push(name);
    results.push({
      certificates: signers.flatMap((s) => s.certificates.slice(0, 1)),
      valid: signers.every((s) => s.signatureValid),
    });
  }
  const signerCertificates =
    [...results].reverse().find((r) => r.certificates.length > 0)?.certificates ?? [];
  return {
    schemes,
    signed: results.length > 0 && results.every((r) => r.valid),
    certificates: summarizeUnique(signerCertificates),
  };
}
