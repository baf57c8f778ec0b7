/**
 * The embedded code signature of one Mach-O image: a SuperBlob holding the CodeDirectory
 * (SHA-256 page hashes plus the special slots), the requirements, the entitlements in XML and
 * DER form, and the CMS signature over the CodeDirectory.
 */
import { createHash } from "node:crypto";
import type { PlistValue } from "../../plist/types.ts";
import { estimateSignatureSize, type SigningIdentity, signCodeDirectory } from "./cms-signature.ts";
import { makeRoomForSignature, mhExecute, readThinImage } from "./macho.ts";
import { entitlementsToDer, writeXmlPlist } from "./plist-writer.ts";

export const magic = {
  requirement: 0xfade0c00,
  requirements: 0xfade0c01,
  codeDirectory: 0xfade0c02,
  superBlob: 0xfade0cc0,
  entitlements: 0xfade7171,
  derEntitlements: 0xfade7172,
  cms: 0xfade0b01,
};
export const slot = {
  infoPlist: 1,
  requirements: 2,
  resources: 3,
  entitlements: 5,
  derEntitlements: 7,
  cms: 0x10000,
};
export const pageSize = 4096;
const hashSize = 32;
const hashTypeSha256 = 2;
const codeDirectoryVersion = 0x20400;
const execSegMainBinary = 0x1;
const execSegAllowUnsigned = 0x10;

function blob(magicNumber: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(magicNumber, 0);
  header.writeUInt32BE(payload.length + 8, 4);
  return Buffer.concat([header, payload]);
}

const u32 = (value: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out;
};

/** Requirement-language data: a length, then the bytes padded to four. */
function data(bytes: Buffer): Buffer {
  return Buffer.concat([u32(bytes.length), bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
}

const op = { and: 6, ident: 2, appleGenericAnchor: 15, certField: 11, certGeneric: 14 };
const match = { exists: 0, equal: 1 };
/** Apple's marker extension of iPhone developer and distribution certificates (on the WWDR intermediate). */
const wwdrMarker = Buffer.from("2a864886f763640602 01".replace(/ /g, ""), "hex");

export interface Designation {
  identifier: string;
  /** The leaf certificate's subject common name. */
  commonName: string;
}

/** The designated requirement codesign writes for an Apple-issued identity, in text form. */
export function requirementText({ identifier, commonName }: Designation): string {
  const quote = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  return `identifier ${quote(identifier)} and anchor apple generic and certificate leaf[subject.CN] = ${quote(commonName)} and certificate 1[field.1.2.840.113635.100.6.2.1] /* exists */`;
}

/** The same requirement compiled: a Requirements set with one designated requirement. */
export function requirementsBlob({ identifier, commonName }: Designation): Buffer {
  const expression = Buffer.concat([
    u32(op.and),
    u32(op.ident),
    data(Buffer.from(identifier)),
    u32(op.and),
    u32(op.appleGenericAnchor),
    u32(op.and),
    u32(op.certField),
    u32(0),
    data(Buffer.from("subject.CN")),
    u32(match.equal),
    data(Buffer.from(commonName)),
    u32(op.certGeneric),
    u32(1),
    data(wwdrMarker),
    u32(match.exists),
  ]);
  const requirement = blob(magic.requirement, Buffer.concat([u32(1), expression]));
  const designatedType = 3;
  return blob(magic.requirements, Buffer.concat([u32(1), u32(designatedType), u32(20), requirement]));
}

export interface ImageSigningInput {
  identifier: string;
  teamId: string;
  identity: SigningIdentity;
  commonName: string;
  /** SHA-256 of the bundle's Info.plist, for its main executable. */
  infoPlistHash?: Buffer;
  /** SHA-256 of the bundle's _CodeSignature/CodeResources, for its main executable. */
  resourcesHash?: Buffer;
  entitlements?: { [key: string]: PlistValue };
  signingTime: Date;
}

function superBlob(entries: Array<[number, Buffer]>): Buffer {
  const headerSize = 12 + entries.length * 8;
  const header = Buffer.alloc(headerSize);
  header.writeUInt32BE(magic.superBlob, 0);
  header.writeUInt32BE(count(entries) + headerSize, 4);
  header.writeUInt32BE(entries.length, 8);
  let offset = headerSize;
  entries.forEach(([type, body], index) => {
    header.writeUInt32BE(type, 12 + index * 8);
    header.writeUInt32BE(offset, 16 + index * 8);
    offset += body.length;
  });
  return Buffer.concat([header, ...entries.map(([, body]) => body)]);
}

const count = (entries: Array<[number, Buffer]>) => entries.reduce((sum, [, body]) => sum + body.length, 0);
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest();

/** Signs one thin image; returns the new image and its CodeDirectory hash. */
export function signThinImage(image: Buffer, input: ImageSigningInput): { image: Buffer; cdHash: Buffer } {
  const info = readThinImage(image);
  const requirements = requirementsBlob({ identifier: input.identifier, commonName: input.commonName });
  const special = new Map<number, Buffer>([[slot.requirements, sha256(requirements)]]);
  const blobs: Array<[number, Buffer]> = [[slot.requirements, requirements]];
  if (input.infoPlistHash) special.set(slot.infoPlist, input.infoPlistHash);
  if (input.resourcesHash) special.set(slot.resources, input.resourcesHash);
  if (input.entitlements) {
    const xml = blob(magic.entitlements, writeXmlPlist(input.entitlements));
    const derForm = blob(magic.derEntitlements, entitlementsToDer(input.entitlements));
    blobs.push([slot.entitlements, xml], [slot.derEntitlements, derForm]);
    special.set(slot.entitlements, sha256(xml)).set(slot.derEntitlements, sha256(derForm));
  }
  const specialSlots = Math.max(...special.keys());
  const codeSlots = Math.ceil(info.codeLimit / pageSize);
  const identifier = Buffer.from(`${input.identifier}\0`);
  const team = Buffer.from(`${input.teamId}\0`);
  const headerSize = 88;
  const directorySize = headerSize + identifier.length + team.length + (specialSlots + codeSlots) * hashSize;
  const reserved =
    12 + (blobs.length + 2) * 8 + directorySize + count(blobs) + 8 + estimateSignatureSize(input.identity);
  const signatureSize = Math.ceil(reserved / 16) * 16;
  const out = makeRoomForSignature(image, info, signatureSize);

  const cd = Buffer.alloc(directorySize);
  const hashOffset = headerSize + identifier.length + team.length + specialSlots * hashSize;
  cd.writeUInt32BE(magic.codeDirectory, 0);
  cd.writeUInt32BE(directorySize, 4);
  cd.writeUInt32BE(codeDirectoryVersion, 8);
  cd.writeUInt32BE(0, 12); // flags
  cd.writeUInt32BE(hashOffset, 16);
  cd.writeUInt32BE(headerSize, 20); // identOffset
  cd.writeUInt32BE(specialSlots, 24);
  cd.writeUInt32BE(codeSlots, 28);
  cd.writeUInt32BE(info.codeLimit, 32);
  cd.writeUInt8(hashSize, 36);
  cd.writeUInt8(hashTypeSha256, 37);
  cd.writeUInt8(0, 38); // platform
  cd.writeUInt8(Math.log2(pageSize), 39);
  cd.writeUInt32BE(headerSize + identifier.length, 48); // teamOffset (scatterOffset at 44 stays 0)
  cd.writeBigUInt64BE(BigInt(info.text.fileoff), 64);
  cd.writeBigUInt64BE(BigInt(info.text.filesize), 72);
  let execFlags = info.filetype === mhExecute ? execSegMainBinary : 0;
  if (info.filetype === mhExecute && input.entitlements?.["get-task-allow"] === true)
    execFlags |= execSegAllowUnsigned;
  cd.writeBigUInt64BE(BigInt(execFlags), 80);
  identifier.copy(cd, headerSize);
  team.copy(cd, headerSize + identifier.length);
  for (const [number, hash] of special) hash.copy(cd, hashOffset - number * hashSize);
  for (let page = 0; page < codeSlots; page += 1) {
    const end = Math.min((page + 1) * pageSize, info.codeLimit);
    sha256(out.subarray(page * pageSize, end)).copy(cd, hashOffset + page * hashSize);
  }

  const cms = blob(magic.cms, signCodeDirectory(cd, input.identity, input.signingTime));
  const signature = superBlob([[0, cd], ...blobs, [slot.cms, cms]]);
  if (signature.length > signatureSize) throw new Error("the code signature outgrew the room kept for it");
  signature.copy(out, info.codeLimit);
  return { image: out, cdHash: sha256(cd) };
}
