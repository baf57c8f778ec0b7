import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readProvisioningProfile } from "../../src/apple/mobileprovision.ts";
import { InspectError } from "../../src/errors.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/apple/${name}`, import.meta.url));
const now = new Date("2026-01-01T00:00:00Z");

// `openssl x509 -noout -subject -issuer -dates -fingerprint -sha256` of DeveloperCertificates[0].
const developerCertificate = {
  subject: "C=US, O=Tarmac Fixtures, OU=ABCDE12345, CN=iPhone Distribution: Tarmac Fixtures (ABCDE12345)",
  issuer: "C=US, O=Tarmac Fixtures, CN=Tarmac Fixture Root CA",
  sha256: "d30083aec3fed2630dd9a66bcd98451708ed2fd88a7c6239f4700829b0f366dc",
  not_before: "2024-01-01T00:00:00.000Z",
  not_after: "2034-01-01T00:00:00.000Z",
};

const entitlementsFor = (appId: string, getTaskAllow: boolean) => ({
  "application-identifier": `ABCDE12345.${appId}`,
  "get-task-allow": getTaskAllow,
  "keychain-access-groups": ["ABCDE12345.*"],
  "com.apple.developer.team-identifier": "ABCDE12345",
});

// Each profile's plist as printed by `openssl cms -verify -binary -inform DER -CAfile ca.pem | plistutil`.
describe("provisioning profiles", () => {
  it("reads an ad-hoc profile with UDIDs in both forms", () => {
    expect(readProvisioningProfile(fixture("profiles/adhoc.mobileprovision"), now)).toEqual({
      signature_valid: true,
      kind: "ad_hoc",
      name: "Tarmac adhoc",
      uuid: "11111111-2222-3333-4444-555555555555",
      team_id: "ABCDE12345",
      team_name: "Tarmac Fixtures",
      app_id_name: "Tarmac Fixture adhoc",
      created: "2024-01-02T03:04:05.000Z",
      expires: "2034-01-01T00:00:00.000Z",
      expired: false,
      devices: ["00008030-001A2D3C0E78802E", "2b6f0cc904d137be2e1730235f5664094b831186"],
      provisions_all_devices: false,
      entitlements: entitlementsFor("com.tarmac.fixture.adhoc", false),
      certificates: [developerCertificate],
    });
  });

  it("reads an enterprise profile", () => {
    const info = readProvisioningProfile(fixture("profiles/enterprise.mobileprovision"), now);
    expect(info.kind).toBe("enterprise");
    expect(info.provisions_all_devices).toBe(true);
    expect(info.devices).toEqual([]);
    expect(info.uuid).toBe("66666666-7777-8888-9999-aaaaaaaaaaaa");
    expect(info.signature_valid).toBe(true);
  });

  it("reads an App Store profile", () => {
    const info = readProvisioningProfile(fixture("profiles/appstore.mobileprovision"), now);
    expect(info.kind).toBe("app_store");
    expect(info.name).toBe("Tarmac appstore");
    expect(info.devices).toEqual([]);
    expect(info.provisions_all_devices).toBe(false);
  });

  it("reads an expired development profile", () => {
    const info = readProvisioningProfile(fixture("profiles/development.mobileprovision"), now);
    expect(info.kind).toBe("development");
    expect(info.expires).toBe("2024-06-01T00:00:00.000Z");
    expect(info.expired).toBe(true);
    expect(info.devices).toEqual(["00008101-000A1B2C3D4E5F60"]);
    expect(info.entitlements).toEqual(entitlementsFor("com.tarmac.fixture.dev", true));
    const before = readProvisioningProfile(
      fixture("profiles/development.mobileprovision"),
      new Date("2024-05-31"),
    );
    expect(before.expired).toBe(false);
  });

  it("reports an invalid signature when the content was altered", () => {
    const tampered = Buffer.from(fixture("profiles/adhoc.mobileprovision"));
    const at = tampered.indexOf("Tarmac adhoc");
    tampered.write("Tarmac adhod", at, "latin1");
    const info = readProvisioningProfile(tampered, now);
    expect(info.name).toBe("Tarmac adhod");
    expect(info.signature_valid).toBe(false);
  });

  it("refuses a file that is not a profile", () => {
    expect(() => readProvisioningProfile(fixture("certs/signer.der"), now)).toThrow(InspectError);
    expect(() => readProvisioningProfile(fixture("cms/rsa-sha256.der"), now)).toThrow(InspectError);
  });
});
