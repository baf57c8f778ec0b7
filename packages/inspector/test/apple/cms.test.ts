import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseSignedData, verifySignedData } from "../../src/cert/cms.ts";
import { childrenOf, derMaxDepth, readNode } from "../../src/cert/der.ts";
import { summarizeCertificate } from "../../src/cert/x509.ts";
import { InspectError } from "../../src/errors.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/apple/${name}`, import.meta.url));
const pemToDer = (pem: Buffer) =>
  Buffer.from(pem.toString("latin1").replace(/-----[^-]+-----|\s/g, ""), "base64");

const content = Buffer.from("Tarmac CMS fixture content\n");

// Readings of `openssl x509 -noout -subject -issuer -dates -fingerprint -sha256`.
const signerInfo = {
  subject: "C=US, O=Tarmac Fixtures, OU=ABCDE12345, CN=iPhone Distribution: Tarmac Fixtures (ABCDE12345)",
  issuer: "C=US, O=Tarmac Fixtures, CN=Tarmac Fixture Root CA",
  sha256: "d30083aec3fed2630dd9a66bcd98451708ed2fd88a7c6239f4700829b0f366dc",
  not_before: "2024-01-01T00:00:00.000Z",
  not_after: "2034-01-01T00:00:00.000Z",
};
const caSha256 = "9402c40a2e7260cd927e83e89582df5e070791e198fd0cb08f805849537cf086";
const dsaSha256 = "42d6c8b9bac122d4085d6f9839505c6542f2085bf5c7281d21730b7b3a69e3d1";
const ecSha256 = "f6bef36779ba5675170bd1b553b8a4f1a35d668e6a822b6c798d16e02987d606";

function expectCorrupt(run: () => unknown, reason = "corrupt"): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InspectError);
    expect((error as InspectError).reason).toBe(reason);
    return;
  }
  throw new Error("expected an InspectError");
}

describe("X.509 summary", () => {
  it("matches openssl's reading of the signer certificate", () => {
    expect(summarizeCertificate(fixture("certs/signer.der"))).toEqual(signerInfo);
    expect(summarizeCertificate(pemToDer(fixture("certs/ca.pem"))).sha256).toBe(caSha256);
  });

  it("refuses bytes that are not a certificate", () => {
    expectCorrupt(() => summarizeCertificate(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01])));
  });
});

describe("CMS SignedData", () => {
  it("reads and verifies an RSA SHA-256 signature made by openssl cms -nodetach", () => {
    const signed = parseSignedData(fixture("cms/rsa-sha256.der"));
    expect(signed.contentType).toBe("1.2.840.113549.1.7.1");
    expect(signed.content).toEqual(content);
    // openssl writes the set in DER SET order: here the CA certificate sorts first.
    expect(signed.certificates.map((der) => summarizeCertificate(der).sha256)).toEqual([
      caSha256,
      signerInfo.sha256,
    ]);
    expect(signed.signers).toHaveLength(1);
    expect(signed.signers[0]?.digestAlgorithm).toBe("2.16.840.1.101.3.4.2.1");
    expect(signed.signers[0]?.signatureAlgorithm).toBe("1.2.840.113549.1.1.1");
    // openssl cms -cmsout -print: messageDigest e3 3f a0 ... 7a (the SHA-256 of the content).
    expect(signed.signers[0]?.messageDigest?.toString("hex")).toBe(
      "e33fa0ea13dba457d9b2bf7e21f9beeb71064c741e89fe9c9dec7a3fddac0e7a",
    );
    expect(verifySignedData(signed)).toBe(true);
  });

  it("verifies ECDSA with SHA-384", () => {
    const signed = parseSignedData(fixture("cms/ec-sha384.der"));
    expect(signed.certificates.map((der) => summarizeCertificate(der).sha256)).toEqual([ecSha256]);
    expect(signed.signers[0]?.digestAlgorithm).toBe("2.16.840.1.101.3.4.2.2");
    expect(verifySignedData(signed)).toBe(true);
  });

  it("verifies DSA with SHA-256", () => {
    const signed = parseSignedData(fixture("cms/dsa-sha256.der"));
    expect(signed.certificates.map((der) => summarizeCertificate(der).sha256)).toEqual([dsaSha256]);
    expect(signed.signers[0]?.signatureAlgorithm).toBe("2.16.840.1.101.3.4.3.2");
    expect(verifySignedData(signed)).toBe(true);
  });

  it("reads BER output of -stream (indefinite lengths, chunked content) with SHA-512", () => {
    const signed = parseSignedData(fixture("cms/rsa-sha512-ber.der"));
    expect(signed.content).toEqual(content);
    expect(signed.signers[0]?.digestAlgorithm).toBe("2.16.840.1.101.3.4.2.3");
    expect(verifySignedData(signed)).toBe(true);
  });

  it("verifies a detached SHA-1 signature without signed attributes against the given content", () => {
    const signed = parseSignedData(fixture("cms/detached-noattr-sha1.der"));
    expect(signed.content).toBeNull();
    expect(signed.signers[0]?.signedAttributes).toBeNull();
    expect(verifySignedData(signed)).toBe(false);
    expect(verifySignedData(signed, content)).toBe(true);
    expect(verifySignedData(signed, Buffer.from("Tarmac CMS fixture content!"))).toBe(false);
  });

  it("rejects a copy whose content was altered", () => {
    const tampered = Buffer.from(fixture("cms/rsa-sha256.der"));
    const at = tampered.indexOf("Tarmac CMS");
    tampered[at + 5] = "k".charCodeAt(0);
    const signed = parseSignedData(tampered);
    expect(signed.content?.toString()).toBe("Tarmak CMS fixture content\n");
    expect(verifySignedData(signed)).toBe(false);
  });

  it("rejects a copy whose signature was altered", () => {
    const tampered = Buffer.from(fixture("cms/rsa-sha256.der"));
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 0x01;
    expect(verifySignedData(parseSignedData(tampered))).toBe(false);
  });

  it("rejects a signer whose certificate is not included", () => {
    const signed = parseSignedData(fixture("cms/rsa-sha256.der"));
    const others = signed.certificates.filter(
      (der) => summarizeCertificate(der).sha256 !== signerInfo.sha256,
    );
    expect(others).toHaveLength(1);
    expect(verifySignedData({ ...signed, certificates: others })).toBe(false);
  });

  it("turns every truncation into InspectError", () => {
    const der = fixture("cms/rsa-sha256.der");
    for (let length = 0; length < der.length; length += 7) {
      expectCorrupt(() => parseSignedData(der.subarray(0, length)));
    }
  });

  it("refuses content that is not SignedData", () => {
    expectCorrupt(() => parseSignedData(fixture("certs/signer.der")));
  });
});

describe("DER reader", () => {
  it("refuses a length that overruns the buffer", () => {
    expectCorrupt(() => readNode(Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x00])));
    expectCorrupt(() => readNode(Buffer.from([0x04, 0x05, 0x01])));
  });

  it("bounds nesting depth", () => {
    const depth = derMaxDepth + 4;
    const nested = Buffer.concat([Buffer.alloc(depth * 2, 0), Buffer.alloc(depth * 2, 0)]);
    for (let i = 0; i < depth; i++) {
      nested[i * 2] = 0x30;
      nested[i * 2 + 1] = 0x80;
    }
    expectCorrupt(() => readNode(nested), "limit_exceeded");
  });

  it("lists children of a definite-length SEQUENCE", () => {
    const buf = Buffer.from([0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xaa]);
    expect(childrenOf(buf, readNode(buf)).map((node) => node.tag)).toEqual([0x02, 0x04]);
  });
});
