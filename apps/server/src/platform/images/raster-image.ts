import { readJpegSize } from "@tarmac/inspector";
/** Raster images people upload (logos, feedback screenshots): the type comes from the bytes, never from a name or header. */
export interface ImageType {
  extension: "png" | "jpg" | "webp";
  contentType: string;
}

const contentTypes: Record<ImageType["extension"], string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
};

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG, JPEG or WebP by signature; SVG is refused because it can carry script. */
export function detectImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(pngSignature)) return typeOf("png");
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return typeOf("jpg");
  if (
    bytes.length >= 12 &&
    bytes.toString("latin1", 0, 4) === "RIFF" &&
    bytes.toString("latin1", 8, 12) === "WEBP"
  ) {
    return typeOf("webp");
  }
  return null;
}

function typeOf(extension: ImageType["extension"]): ImageType {
  return { extension, contentType: contentTypes[extension] };
}

export function contentTypeOfExtension(extension: string): string {
  return contentTypes[extension as ImageType["extension"]] ?? "application/octet-stream";
}

export interface ImageSize {
  width: number;
  height: number;
}

/** PNG: the IHDR chunk follows the signature. */
function pngSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 24 || bytes.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X) headers. */
function webpSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 30) return null;
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8 ")
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return null;
}

/** The image's width and height as its header states them, or null when the header is broken. */
export function imageSize(bytes: Buffer, type: ImageType): ImageSize | null {
  const size =
    type.extension === "png"
      ? pngSize(bytes)
      : type.extension === "jpg"
        ? readJpegSize(bytes)
        : webpSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
