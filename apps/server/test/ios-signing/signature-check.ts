/**
 * Checks a signed Mach-O without the signer's code: the load commands, every page hash, the
 * special slots against the files they stand for, the CMS signature through `openssl cms
 * -verify`, and the CDHashes attributes. Written from Apple's published layout (cs_blobs.h).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import forge from "node-forge";
import { expect } from "vitest";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest();

export interface SliceReport {
  cpuType: number;
  identifier: string;
  teamId: string;
  cdHash: Buffer;
  specialSlots: Map<number, Buffer>;
  entitlementsXml: string | null;
  execSegFlags: bigint;
}

function slicesOf(file: Buffer): Buffer[] {
  if (file.readUInt32BE(0) !== 0xcafebabe) return [file];
  const count = file.readUInt32BE(4);
  return Array.from({ length: count }, (_, index) => {
    const offset = file.readUInt32BE(8 + index * 20 + 8);
    const size = file.readUInt32BE(8 + index * 20 + 12);
    return file.subarray(offset, offset + size);
  });
}

function blobs(signature: Buffer): Map<number, Buffer> {
  expect(signature.readUInt32BE(0)).toBe(0xfade0cc0);
  const found = new Map<number, Buffer>();
  const count = signature.readUInt32BE(8);
  for (let index = 0; index < count; index += 1) {
    const type = signature.readUInt32BE(12 + index * 8);
    const offset = signature.readUInt32BE(16 + index * 8);
    const length = signature.readUInt32BE(offset + 4);
    found.set(type, signature.subarray(offset, offset + length));
  }
  return found;
}

function checkCms(cms: Buffer, codeDirectory: Buffer, caFile: string, scratch: string): void {
  const cmsFile = path.join(scratch, "signature.der");
  const cdFile = path.join(scratch, "code-directory.bin");
  writeFileSync(cmsFile, cms);
  writeFileSync(cdFile, codeDirectory);
  execFileSync(
    "openssl",
    [
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      cmsFile,
      "-content",
      cdFile,
      "-CAfile",
      caFile,
      "-purpose",
      "any",
      "-out",
      "/dev/null",
    ],
    { stdio: "pipe" },
  );
  // The signed attributes: messageDigest, and Apple's two CDHashes attributes naming the directory.
  const message = forge.pkcs7.messageFromAsn1(
    forge.asn1.fromDer(forge.util.createBuffer(cms.toString("binary"))),
  );
  const signerInfos = (message as unknown as { rawCapture: { signerInfos: forge.asn1.Asn1[] } }).rawCapture
    .signerInfos;
  const signer = signerInfos[0]?.value as forge.asn1.Asn1[];
  const attributes = (signer.find((node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC)?.value ??
    []) as forge.asn1.Asn1[];
  const byOid = new Map<string, forge.asn1.Asn1>();
  for (const attribute of attributes) {
    const [oid, values] = attribute.value as forge.asn1.Asn1[];
    byOid.set(
      forge.asn1.derToOid(oid?.value as string),
      ((values?.value ?? []) as forge.asn1.Asn1[])[0] as forge.asn1.Asn1,
    );
  }
  const bytes = (node: forge.asn1.Asn1 | undefined) => Buffer.from(node?.value as string, "binary");
  const digest = sha256(codeDirectory);
  expect(bytes(byOid.get("1.2.840.113549.1.9.4"))).toEqual(digest);
  const hashes2 = byOid.get("1.2.840.113635.100.9.2")?.value as forge.asn1.Asn1[];
  expect(forge.asn1.derToOid(hashes2[0]?.value as string)).toBe("2.16.840.1.101.3.4.2.1");
  expect(bytes(hashes2[1])).toEqual(digest);
  const plist = bytes(byOid.get("1.2.840.113635.100.9.1")).toString("utf8");
  expect(plist).toContain(`<data>${digest.subarray(0, 20).toString("base64")}</data>`);
}

/** Verifies one signed Mach-O (thin or fat); `files` are the bundle's Info.plist and CodeResources, when sealed. */
export function verifySignedMachO(
  file: Buffer,
  options: { caFile: string; scratch: string; infoPlist?: Buffer; codeResources?: Buffer },
): SliceReport[] {
  return slicesOf(file).map((image) => {
    expect(image.readUInt32LE(0)).toBe(0xfeedfacf);
    const ncmds = image.readUInt32LE(16);
    let at = 32;
    let linkedit: { fileoff: bigint; filesize: bigint; vmsize: bigint } | null = null;
    let text: { fileoff: bigint; filesize: bigint } | null = null;
    let signature: { dataoff: number; datasize: number } | null = null;
    for (let index = 0; index < ncmds; index += 1) {
      const cmd = image.readUInt32LE(at);
      if (cmd === 0x19) {
        const name = image.toString("latin1", at + 8, at + 24).replace(/\0+$/, "");
        const segment = {
          vmsize: image.readBigUInt64LE(at + 32),
          fileoff: image.readBigUInt64LE(at + 40),
          filesize: image.readBigUInt64LE(at + 48),
        };
        if (name === "__LINKEDIT") linkedit = segment;
        if (name === "__TEXT") text = segment;
      }
      if (cmd === 0x1d)
        signature = { dataoff: image.readUInt32LE(at + 8), datasize: image.readUInt32LE(at + 12) };
      at += image.readUInt32LE(at + 4);
    }
    if (!linkedit || !signature || !text) throw new Error("no __LINKEDIT, __TEXT or LC_CODE_SIGNATURE");
    // The signature ends __LINKEDIT, which ends the file, and the segment maps all of it.
    expect(BigInt(signature.dataoff + signature.datasize)).toBe(linkedit.fileoff + linkedit.filesize);
    expect(signature.dataoff + signature.datasize).toBe(image.length);
    expect(linkedit.vmsize >= linkedit.filesize).toBe(true);
    expect(signature.dataoff % 16).toBe(0);

    const found = blobs(image.subarray(signature.dataoff, signature.dataoff + signature.datasize));
    const cd = found.get(0) as Buffer;
    expect(cd.readUInt32BE(0)).toBe(0xfade0c02);
    const hashOffset = cd.readUInt32BE(16);
    const nSpecial = cd.readUInt32BE(24);
    const nCode = cd.readUInt32BE(28);
    const codeLimit = cd.readUInt32BE(32);
    expect(cd.readUInt8(36)).toBe(32);
    expect(cd.readUInt8(37)).toBe(2); // SHA-256
    const pageSize = 2 ** cd.readUInt8(39);
    expect(codeLimit).toBe(signature.dataoff);
    expect(nCode).toBe(Math.ceil(codeLimit / pageSize));
    for (let page = 0; page < nCode; page += 1) {
      const expected = sha256(image.subarray(page * pageSize, Math.min((page + 1) * pageSize, codeLimit)));
      expect(
        cd.subarray(hashOffset + page * 32, hashOffset + (page + 1) * 32).equals(expected),
        `page ${page}`,
      ).toBe(true);
    }
    const specialSlots = new Map<number, Buffer>();
    for (let number = 1; number <= nSpecial; number += 1) {
      specialSlots.set(number, cd.subarray(hashOffset - number * 32, hashOffset - (number - 1) * 32));
    }
    const zero = Buffer.alloc(32);
    const slotFor = (number: number, content: Buffer | undefined) =>
      expect(specialSlots.get(number) ?? zero, `special slot ${number}`).toEqual(
        content ? sha256(content) : zero,
      );
    slotFor(1, options.infoPlist);
    slotFor(2, found.get(2));
    slotFor(3, options.codeResources);
    slotFor(5, found.get(5));
    slotFor(7, found.get(7));
    expect(found.get(2)?.readUInt32BE(0)).toBe(0xfade0c01);
    if (found.has(5))
      expect(found.get(7)?.subarray(8, 10)).toEqual(Buffer.from([0x70, found.get(7)?.[9] as number]));
    checkCms((found.get(0x10000) as Buffer).subarray(8), cd, options.caFile, options.scratch);
    const identOffset = cd.readUInt32BE(20);
    const teamOffset = cd.readUInt32BE(48);
    const readString = (offset: number) => cd.toString("utf8", offset, cd.indexOf(0, offset));
    expect(cd.readBigUInt64BE(64)).toBe(text.fileoff);
    expect(cd.readBigUInt64BE(72)).toBe(text.filesize);
    return {
      cpuType: image.readUInt32LE(4),
      identifier: readString(identOffset),
      teamId: readString(teamOffset),
      cdHash: sha256(cd),
      specialSlots,
      entitlementsXml: found.get(5)?.subarray(8).toString("utf8") ?? null,
      execSegFlags: cd.readBigUInt64BE(80),
    };
  });
}
