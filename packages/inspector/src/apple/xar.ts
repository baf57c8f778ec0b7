import { createHash, verify as verifySignature } from "node:crypto";
import { inflateSync } from "node:zlib";
import { parseCertificate } from "../cert/x509.ts";
import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import type { ByteSource } from "../source.ts";
import {
  attributeOf,
  childText,
  findChild,
  findChildren,
  findPath,
  parseXml,
  type XmlElement,
} from "../xml/index.ts";

/**
 * xar archives (macOS .pkg): a big-endian header, a zlib-compressed XML table of contents, then
 * a heap that the TOC's files point into. Only the TOC and the files asked for are read.
 */

const magic = 0x78617221; // "xar!"
const minHeaderSize = 28;
const maxHeaderSize = 4096;
/** The TOC of a large installer is well under a megabyte; these bound hostile ones. */
export const xarMaxTocCompressed = 16 * 1024 * 1024;
export const xarMaxTocBytes = 16 * 1024 * 1024;

const checksumNames: Record<number, string> = { 1: "sha1", 2: "md5" };
const digestLengths: Record<string, number> = { sha1: 20, md5: 16, sha256: 32, sha512: 64 };

export interface XarFile {
  path: string;
  offset: number; // within the heap
  length: number; // archived bytes
  size: number; // extracted bytes
  encoding: string;
}

export interface XarSignature {
  style: string;
  certificates: Buffer[];
  /** The first certificate's key verifies the signature over the compressed TOC. */
  valid: boolean;
}

export interface XarArchive {
  files: XarFile[];
  checksumAlgorithm: string | null;
  signature: XarSignature | null;
  read(file: XarFile, maxBytes: number): Promise<Buffer>;
}

function corrupt(message: string): never {
  throw new InspectError("corrupt", `xar: ${message}`);
}

function readNumber(element: XmlElement | undefined, name: string): number {
  const text = element ? childText(element, name) : null;
  if (text === null || !/^\d{1,15}$/.test(text)) corrupt(`missing or bad <${name}>`);
  return Number(text);
}

function checkName(name: string): void {
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    throw new InspectError(
      "unsafe_entry",
      `xar entry name ${JSON.stringify(name.slice(0, 80))} is not allowed`,
    );
  }
}

function collectFiles(parent: XmlElement, prefix: string, out: XarFile[]): void {
  for (const element of findChildren(parent, "file")) {
    if (out.length >= limits.zipMaxEntries)
      throw new InspectError("limit_exceeded", "xar has too many entries");
    const name = childText(element, "name") ?? "";
    checkName(name);
    const path = prefix + name;
    const data = findChild(element, "data");
    if (data) {
      const encoding = findChild(data, "encoding");
      out.push({
        path,
        offset: readNumber(data, "offset"),
        length: readNumber(data, "length"),
        size: readNumber(data, "size"),
        encoding: (encoding && attributeOf(encoding, "style")) ?? "application/octet-stream",
      });
    }
    collectFiles(element, `${path}/`, out);
  }
}

async function readHeader(source: ByteSource) {
  if (source.size < minHeaderSize) corrupt("file too short");
  const head = await source.read(0, minHeaderSize);
  if (head.readUInt32BE(0) !== magic) corrupt("bad magic");
  const headerSize = head.readUInt16BE(4);
  const version = head.readUInt16BE(6);
  const tocCompressed = Number(head.readBigUInt64BE(8));
  const tocSize = Number(head.readBigUInt64BE(16));
  const checksumAlg = head.readUInt32BE(24);
  if (headerSize < minHeaderSize || headerSize > maxHeaderSize) corrupt(`bad header size ${headerSize}`);
  if (version !== 1) corrupt(`unsupported version ${version}`);
  if (tocCompressed === 0 || tocCompressed > xarMaxTocCompressed || tocSize > xarMaxTocBytes) {
    throw new InspectError("limit_exceeded", "xar table of contents too large");
  }
  if (headerSize + tocCompressed > source.size) corrupt("table of contents past the end");
  let checksumName = checksumNames[checksumAlg] ?? null;
  if (checksumAlg === 3 && headerSize > minHeaderSize) {
    // "Other" algorithms name themselves in the rest of the header, NUL-terminated.
    const rest = await source.read(minHeaderSize, headerSize - minHeaderSize);
    checksumName = rest.toString("latin1").split("\0")[0]?.toLowerCase() ?? null;
  }
  return { headerSize, tocCompressed, tocSize, checksumName };
}

function inflateToc(compressed: Buffer, tocSize: number): Buffer {
  try {
    return inflateSync(compressed, { maxOutputLength: Math.max(tocSize, 1) });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new InspectError("limit_exceeded", "xar table of contents inflates past its declared size");
    }
    return corrupt(`table of contents does not inflate: ${(error as Error).message}`);
  }
}

export async function openXar(source: ByteSource): Promise<XarArchive> {
  const header = await readHeader(source);
  const compressed = await source.read(header.headerSize, header.tocCompressed);
  const root = parseXml(inflateToc(compressed, header.tocSize));
  const toc = root.name === "xar" ? findChild(root, "toc") : undefined;
  if (!toc) corrupt("no <toc>");
  const heapStart = header.headerSize + header.tocCompressed;
  const heapSize = source.size - heapStart;
  const readHeap = (offset: number, length: number): Promise<Buffer> => {
    if (offset + length > heapSize) corrupt("heap range past the end");
    return source.read(heapStart + offset, length);
  };

  const checksum = findChild(toc, "checksum");
  const checksumName = (checksum && attributeOf(checksum, "style")?.toLowerCase()) || header.checksumName;
  if (checksum && checksumName && digestLengths[checksumName]) {
    const size = readNumber(checksum, "size");
    if (size !== digestLengths[checksumName]) corrupt("checksum size does not match its algorithm");
    const stored = await readHeap(readNumber(checksum, "offset"), size);
    if (!createHash(checksumName).update(compressed).digest().equals(stored)) {
      corrupt("table of contents fails its checksum");
    }
  }

  const files: XarFile[] = [];
  collectFiles(toc, "", files);
  const signature = await readSignature(toc, compressed, checksumName, readHeap);
  return {
    files,
    checksumAlgorithm: checksumName,
    signature,
    read: (file, maxBytes) => readFile(file, maxBytes, readHeap),
  };
}

async function readSignature(
  toc: XmlElement,
  compressedToc: Buffer,
  checksumName: string | null,
  readHeap: (offset: number, length: number) => Promise<Buffer>,
): Promise<XarSignature | null> {
  const element = findChild(toc, "signature");
  if (!element) return null;
  const style = attributeOf(element, "style") ?? "";
  const x509 = findPath(element, "KeyInfo", "X509Data");
  const certificates = (x509 ? findChildren(x509, "X509Certificate") : [])
    .map((cert) => Buffer.from(cert.text.replace(/\s+/g, ""), "base64"))
    .filter((der) => der.length > 0);
  let valid = false;
  const first = certificates[0];
  if (style === "RSA" && first && checksumName) {
    const signed = await readHeap(readNumber(element, "offset"), readNumber(element, "size"));
    try {
      // The signature covers the TOC checksum, i.e. a digest of the compressed TOC.
      valid = verifySignature(checksumName, compressedToc, parseCertificate(first).publicKey, signed);
    } catch {
      valid = false;
    }
  }
  return { style, certificates, valid };
}

async function readFile(
  file: XarFile,
  maxBytes: number,
  readHeap: (offset: number, length: number) => Promise<Buffer>,
): Promise<Buffer> {
  if (file.size > maxBytes || file.length > maxBytes) {
    throw new InspectError("limit_exceeded", `${file.path} is too large`);
  }
  const raw = await readHeap(file.offset, file.length);
  if (file.encoding === "application/octet-stream") return raw;
  if (file.encoding !== "application/x-gzip")
    corrupt(`${file.path} uses unsupported encoding ${file.encoding}`);
  try {
    // Despite its name, x-gzip in xar means a zlib stream.
    return inflateSync(raw, { maxOutputLength: Math.max(file.size, 1) });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new InspectError("limit_exceeded", `${file.path} inflates past its declared size`);
    }
    return corrupt(`${file.path} does not inflate: ${(error as Error).message}`);
  }
}
