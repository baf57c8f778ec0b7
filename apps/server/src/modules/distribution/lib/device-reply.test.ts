import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrCreateSigningIdentity, signProfile } from "./device-profile.ts";
import { DeviceReplyError, maxDeviceReplyBytes, readDeviceReply } from "./device-reply.ts";

let dir: string;
const udid = "00008101-000A1B2C3D4E5F6A";
const attributes = {
  UDID: udid,
  PRODUCT: "iPhone13,2",
  VERSION: "21E236",
  SERIAL: "F2LXK0ABCDEF",
  IMEI: "35 123456 789012 3",
  CHALLENGE: "c-123",
};

function openssl(...args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
}

/** Signs `content` the way a device does: attached content, signer certificate included. */
function sign(content: string | Buffer, options: { signer?: string; extra?: string[] } = {}): Buffer {
  const signer = options.signer ?? "dev";
  const name = `reply-${Math.random().toString(36).slice(2)}`;
  writeFileSync(path.join(dir, `${name}.plist`), content);
  openssl(
    "cms",
    "-sign",
    "-nodetach",
    "-binary",
    "-outform",
    "DER",
    "-in",
    `${name}.plist`,
    "-signer",
    `${signer}.pem`,
    "-inkey",
    `${signer}.key`,
    "-out",
    `${name}.der`,
    ...(options.extra ?? []),
  );
  return readFileSync(path.join(dir, `${name}.der`));
}

function expectFailure(input: Buffer, reason: string): void {
  try {
    readDeviceReply(input);
  } catch (error) {
    expect(error).toBeInstanceOf(DeviceReplyError);
    expect((error as DeviceReplyError).reason).toBe(reason);
    return;
  }
  throw new Error("expected a DeviceReplyError");
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "tarmac-reply-"));
  const cert = (name: string, ...key: string[]) =>
    openssl(
      "req",
      "-x509",
      ...key,
      "-nodes",
      "-subj",
      `/CN=${name}/O=Test`,
      "-days",
      "2",
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.pem`,
    );
  cert("dev", "-newkey", "rsa:2048");
  cert("ec", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256");
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readDeviceReply", () => {
  it("reads the attributes of a signed reply", () => {
    expect(readDeviceReply(sign(plist.build(attributes)))).toEqual({
      udid,
      product: "iPhone13,2",
      version: "21E236",
      serial: "F2LXK0ABCDEF",
      imei: "35 123456 789012 3",
      challenge: "c-123",
    });
  });

  it("reads a message signed by signProfile", async () => {
    const identity = await loadOrCreateSigningIdentity({ dataDir: dir, organizationName: "Test" });
    expect(readDeviceReply(signProfile(plist.build(attributes), identity)).challenge).toBe("c-123");
  });

  it("accepts SHA-1 and unsigned-attribute variants that older devices send, and EC signers", () => {
    const xml = plist.build(attributes);
    expect(readDeviceReply(sign(xml, { extra: ["-md", "sha1"] })).udid).toBe(udid);
    expect(readDeviceReply(sign(xml, { extra: ["-noattr"] })).udid).toBe(udid);
    // Indefinite-length BER with the content split into chunks.
    const ber = sign(xml, { extra: ["-stream"] });
    expect(ber[1]).toBe(0x80);
    expect(readDeviceReply(ber).udid).toBe(udid);
    expect(readDeviceReply(sign(xml, { signer: "ec" })).udid).toBe(udid);
  });

  it("leaves absent optional attributes null", () => {
    const reply = readDeviceReply(sign(plist.build({ UDID: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678" })));
    expect(reply).toEqual({
      udid: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
      product: null,
      version: null,
      serial: null,
      imei: null,
      challenge: null,
    });
  });

  it("rejects a reply whose content was altered", () => {
    const der = sign(plist.build(attributes));
    const at = der.indexOf(Buffer.from(udid));
    expect(at).toBeGreaterThan(0);
    const tampered = Buffer.from(der);
    tampered[at + 9] = tampered[at + 9] === 0x30 ? 0x31 : 0x30;
    expectFailure(tampered, "bad_signature");
  });

  it("rejects a reply whose signature was altered", () => {
    const der = sign(plist.build(attributes));
    const tampered = Buffer.from(der);
    const last = tampered.length - 10;
    tampered[last] = (tampered[last] ?? 0) ^ 0xff;
    expectFailure(tampered, "bad_signature");
  });

  it("rejects an altered signed attribute (the signing time)", () => {
    const der = sign(plist.build(attributes));
    // The signingTime attribute: its OID, SET, UTCTime tag and length, then YYMMDDHHMMSSZ.
    const signingTimeOid = Buffer.from("06092a864886f70d010905", "hex");
    const at = der.indexOf(signingTimeOid) + signingTimeOid.length + 2;
    expect(der.subarray(at, at + 2)).toEqual(Buffer.from([0x17, 0x0d]));
    const tampered = Buffer.from(der);
    tampered[at + 13] = tampered[at + 13] === 0x30 ? 0x31 : 0x30;
    expectFailure(tampered, "bad_signature");
  });

  it("rejects unsigned and malformed input", () => {
    writeFileSync(path.join(dir, "plain.plist"), plist.build(attributes));
    openssl("cms", "-data_create", "-outform", "DER", "-in", "plain.plist", "-out", "plain.der");
    expectFailure(readFileSync(path.join(dir, "plain.der")), "unsigned");
    expectFailure(Buffer.from(plist.build(attributes)), "malformed");
    expectFailure(Buffer.alloc(0), "malformed");
    const der = sign(plist.build(attributes));
    expectFailure(der.subarray(0, der.length - 40), "malformed");
  });

  it("rejects a detached signature, which carries no content", () => {
    const der = sign(plist.build(attributes));
    writeFileSync(path.join(dir, "content.plist"), plist.build(attributes));
    openssl(
      "cms",
      "-sign",
      "-binary",
      "-outform",
      "DER",
      "-in",
      "content.plist",
      "-signer",
      "dev.pem",
      "-inkey",
      "dev.key",
      "-out",
      "detached.der",
    );
    expect(der.length).toBeGreaterThan(0);
    expectFailure(readFileSync(path.join(dir, "detached.der")), "unsigned");
  });

  it("rejects content that is not a property list, or lacks a valid UDID", () => {
    expectFailure(sign("UDID=123"), "bad_plist");
    expectFailure(sign(plist.build(["UDID", udid])), "bad_plist");
    expectFailure(sign(plist.build({ PRODUCT: "iPhone13,2" })), "missing_udid");
    expectFailure(sign(plist.build({ UDID: "   " })), "missing_udid");
    expectFailure(sign(plist.build({ UDID: "not-a-udid-but-long-enough-xyz" })), "bad_udid");
    expectFailure(sign(plist.build({ UDID: "abc123" })), "bad_udid");
    expectFailure(sign(plist.build({ UDID: "a".repeat(41) })), "bad_udid");
  });

  it("answers any corruption with the typed error, never another exception", () => {
    const der = sign(plist.build(attributes));
    for (let i = 0; i < der.length; i += 7) {
      const flipped = Buffer.from(der);
      flipped[i] = (flipped[i] ?? 0) ^ 0x5a;
      let caught: unknown = null;
      try {
        readDeviceReply(flipped);
      } catch (error) {
        caught = error;
      }
      // A flip inside the unsigned parts (certificate validity) may still read fine.
      if (caught) expect(caught).toBeInstanceOf(DeviceReplyError);
      expect(() => readDeviceReply(der.subarray(0, i))).toThrow(DeviceReplyError);
    }
  });

  it("refuses input over 64 KB before parsing it", () => {
    expectFailure(Buffer.alloc(maxDeviceReplyBytes + 1, 0x30), "too_large");
  });
});
