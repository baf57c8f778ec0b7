/**
 * The little DER the signer writes (PKCS #7 SignedData for JAR signatures) and reads (a
 * certificate's issuer and serial number, the fields a SignerInfo names its certificate by).
 */

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function derElement(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), encodeLength(body.length), body]);
}

export const der = {
  sequence: (...items: Buffer[]) => derElement(0x30, ...items),
  set: (...items: Buffer[]) => derElement(0x31, ...items),
  integer: (value: number) => derElement(0x02, Buffer.from([value])),
  octetString: (value: Buffer) => derElement(0x04, value),
  null: () => Buffer.from([0x05, 0x00]),
  /** Context-specific constructed [n], explicit or implicit alike: the caller decides what goes inside. */
  context: (n: number, ...items: Buffer[]) => derElement(0xa0 | n, ...items),
  oid(dotted: string): Buffer {
    const parts = dotted.split(".").map(Number);
    const bytes = [40 * (parts[0] ?? 0) + (parts[1] ?? 0)];
    for (const part of parts.slice(2)) {
      const chunk = [part & 0x7f];
      for (let rest = Math.floor(part / 128); rest > 0; rest = Math.floor(rest / 128))
        chunk.unshift(0x80 | (rest & 0x7f));
      bytes.push(...chunk);
    }
    return derElement(0x06, Buffer.from(bytes));
  },
};

interface Element {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

/** Reads the element at `offset`; lengths are checked against the buffer so a bad certificate cannot read past it. */
export function readElement(data: Buffer, offset: number): Element {
  const tag = data[offset];
  let length = data[offset + 1];
  if (tag === undefined || length === undefined) throw new Error("truncated DER");
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error("unsupported DER length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (data[contentStart + i] ?? 0);
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > data.length) throw new Error("DER element runs past its buffer");
  return { tag, start: offset, contentStart, end };
}

/** The certificate's issuer Name and serial number INTEGER, both as the DER bytes written in it. */
export function issuerAndSerial(certificate: Buffer): { issuer: Buffer; serial: Buffer } {
  const cert = readElement(certificate, 0);
  const tbs = readElement(certificate, cert.contentStart);
  let cursor = tbs.contentStart;
  let field = readElement(certificate, cursor);
  if (field.tag === 0xa0) {
    cursor = field.end; // the optional [0] version
    field = readElement(certificate, cursor);
  }
  const serial = certificate.subarray(field.start, field.end);
  const algorithm = readElement(certificate, field.end);
  const issuer = readElement(certificate, algorithm.end);
  return { issuer: certificate.subarray(issuer.start, issuer.end), serial };
}
