import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";

/**
 * Writes xar archives from the documented layout (header, zlib TOC, heap) so the pkg reader can
 * be tested without a xar tool. Heap order: TOC checksum, signature, then file data.
 */

export interface XarInput {
  name: string;
  data?: Buffer | string;
  /** "gzip" stores a zlib stream (xar's application/x-gzip); "raw" stores the bytes as they are. */
  encoding?: "gzip" | "raw";
  children?: XarInput[];
}

export interface XarSigner {
  certificates: Buffer[];
  size: number;
  sign(compressedToc: Buffer): Buffer;
}

export interface XarOptions {
  checksum?: "sha1" | "md5" | "none";
  signer?: XarSigner;
  /** Replaces the TOC XML, for malformed-archive tests. */
  tocOverride?: string;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function writeXar(files: XarInput[], options: XarOptions = {}): Buffer {
  const checksum = options.checksum ?? "sha1";
  const digestSize = checksum === "sha1" ? 20 : checksum === "md5" ? 16 : 0;
  const heap: Buffer[] = [];
  let heapLength = digestSize + (options.signer?.size ?? 0);
  let nextId = 1;

  const fileXml = (file: XarInput): string => {
    const id = nextId++;
    let data = "";
    if (file.data !== undefined) {
      const plain = Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data);
      const stored = file.encoding === "raw" ? plain : deflateSync(plain);
      const style = file.encoding === "raw" ? "application/octet-stream" : "application/x-gzip";
      const sha1 = (bytes: Buffer) => createHash("sha1").update(bytes).digest("hex");
      data =
        `<data><length>${stored.length}</length><offset>${heapLength}</offset><size>${plain.length}</size>` +
        `<encoding style="${style}"/><archived-checksum style="sha1">${sha1(stored)}</archived-checksum>` +
        `<extracted-checksum style="sha1">${sha1(plain)}</extracted-checksum></data>`;
      heap.push(stored);
      heapLength += stored.length;
    }
    const type = file.children ? "directory" : "file";
    const children = (file.children ?? []).map(fileXml).join("");
    return `<file id="${id}">${data}<name>${escapeXml(file.name)}</name><type>${type}</type>${children}</file>`;
  };

  const body = files.map(fileXml).join("");
  const checksumXml = digestSize
    ? `<checksum style="${checksum}"><offset>0</offset><size>${digestSize}</size></checksum>`
    : "";
  const signer = options.signer;
  const signatureXml = signer
    ? `<signature style="RSA"><offset>${digestSize}</offset><size>${signer.size}</size>` +
      `<KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data>` +
      signer.certificates
        .map((der) => `<X509Certificate>${der.toString("base64")}</X509Certificate>`)
        .join("") +
      `</X509Data></KeyInfo></signature>`
    : "";
  const tocXml =
    options.tocOverride ??
    `<?xml version="1.0" encoding="UTF-8"?>\n<xar><toc><creation-time>2024-01-01T00:00:00</creation-time>` +
      `${checksumXml}${signatureXml}${body}</toc></xar>`;
  const toc = deflateSync(Buffer.from(tocXml));

  const header = Buffer.alloc(28);
  header.writeUInt32BE(0x78617221, 0);
  header.writeUInt16BE(28, 4);
  header.writeUInt16BE(1, 6);
  header.writeBigUInt64BE(BigInt(toc.length), 8);
  header.writeBigUInt64BE(BigInt(Buffer.byteLength(tocXml)), 16);
  header.writeUInt32BE(checksum === "sha1" ? 1 : checksum === "md5" ? 2 : 0, 24);

  const prefix: Buffer[] = [];
  if (digestSize) prefix.push(createHash(checksum).update(toc).digest());
  if (signer) {
    const signature = signer.sign(toc);
    if (signature.length !== signer.size) throw new Error("signature size differs from the declared size");
    prefix.push(signature);
  }
  return Buffer.concat([header, toc, ...prefix, ...heap]);
}
