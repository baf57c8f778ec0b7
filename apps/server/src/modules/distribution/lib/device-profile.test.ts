import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildProfileServicePayload,
  loadOrCreateSigningIdentity,
  type SigningIdentity,
  SigningIdentityError,
  signProfile,
} from "./device-profile.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "tarmac-profile-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const payloadInput = {
  url: "https://tarmac.example.com/api/udid/reply/?token=a&b=c",
  organization: "Acme & Co",
  displayName: "Acme device identifier",
  identifier: "com.example.tarmac.udid",
  challenge: "c-123",
};

describe("buildProfileServicePayload", () => {
  it("describes a profile service asking for the device attributes", () => {
    const parsed = plist.parse(buildProfileServicePayload(payloadInput)) as Record<string, unknown>;
    expect(parsed).toEqual({
      PayloadContent: {
        URL: payloadInput.url,
        DeviceAttributes: ["UDID", "IMEI", "ICCID", "VERSION", "PRODUCT", "SERIAL"],
        Challenge: "c-123",
      },
      PayloadOrganization: "Acme & Co",
      PayloadDisplayName: "Acme device identifier",
      PayloadVersion: 1,
      PayloadUUID: expect.stringMatching(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/),
      PayloadIdentifier: "com.example.tarmac.udid",
      PayloadType: "Profile Service",
    });
  });
});

describe("loadOrCreateSigningIdentity", () => {
  it("generates a self-signed pair once, key readable by the owner only, and reuses it", async () => {
    const dataDir = path.join(dir, "data");
    const [a, b] = await Promise.all([
      loadOrCreateSigningIdentity({ dataDir, organizationName: "Acme" }),
      loadOrCreateSigningIdentity({ dataDir, organizationName: "Acme" }),
    ]);
    expect(a.certPem).toBe(b.certPem);
    const keyPath = path.join(dataDir, "udid-signing", "key.pem");
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dataDir, "udid-signing", "cert.pem"), "utf8")).toBe(a.certPem);
    const again = await loadOrCreateSigningIdentity({ dataDir, organizationName: "Other" });
    expect(again.certPem).toBe(a.certPem);
    expect(again.keyPem).toBe(a.keyPem);
    expect(a.certificate.subject.getField("O").value).toBe("Acme");
  });

  it("uses configured paths and checks that the key matches", async () => {
    const own = await loadOrCreateSigningIdentity({
      dataDir: path.join(dir, "own"),
      organizationName: "Own",
    });
    const other = await loadOrCreateSigningIdentity({
      dataDir: path.join(dir, "other"),
      organizationName: "X",
    });
    const certPath = path.join(dir, "configured-cert.pem");
    const keyPath = path.join(dir, "configured-key.pem");
    const wrongKeyPath = path.join(dir, "wrong-key.pem");
    writeFileSync(certPath, own.certPem);
    writeFileSync(keyPath, own.keyPem);
    writeFileSync(wrongKeyPath, other.keyPem);
    const loaded = await loadOrCreateSigningIdentity({
      certPath,
      keyPath,
      dataDir: dir,
      organizationName: "X",
    });
    expect(loaded.certPem).toBe(own.certPem);
    await expect(
      loadOrCreateSigningIdentity({ certPath, keyPath: wrongKeyPath, dataDir: dir, organizationName: "X" }),
    ).rejects.toBeInstanceOf(SigningIdentityError);
    await expect(
      loadOrCreateSigningIdentity({ certPath, dataDir: dir, organizationName: "X" }),
    ).rejects.toThrow(/Both/);
  });
});

describe("signProfile", () => {
  let identity: SigningIdentity;
  let certFile: string;
  let signedFile: string;
  const xml = buildProfileServicePayload({ ...payloadInput, displayName: "Идентификатор устройства" });

  beforeAll(async () => {
    identity = await loadOrCreateSigningIdentity({
      dataDir: path.join(dir, "sign"),
      organizationName: "Acme",
    });
    certFile = path.join(dir, "sign", "udid-signing", "cert.pem");
    signedFile = path.join(dir, "profile.mobileconfig");
    writeFileSync(signedFile, signProfile(xml, identity));
  });

  it("produces CMS that openssl verifies with the content attached", () => {
    const out = path.join(dir, "out-noverify.xml");
    execFileSync(
      "openssl",
      ["cms", "-verify", "-inform", "DER", "-noverify", "-in", signedFile, "-out", out],
      {
        stdio: "pipe",
      },
    );
    expect(readFileSync(out, "utf8")).toBe(xml);
  });

  it("chains to the self-signed certificate", () => {
    const out = path.join(dir, "out-ca.xml");
    execFileSync(
      "openssl",
      ["cms", "-verify", "-inform", "DER", "-CAfile", certFile, "-in", signedFile, "-out", out],
      { stdio: "pipe" },
    );
    expect(readFileSync(out, "utf8")).toBe(xml);
  });

  it("signs with SHA-256", () => {
    const dump = execFileSync("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", signedFile], {
      encoding: "utf8",
    });
    expect(dump).toMatch(/digestAlgorithm:\s*\n\s*algorithm: sha256/);
  });
});
