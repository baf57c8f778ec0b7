/** Logos are small raster images; the type comes from the bytes, never from the name or header. */
export const maxLogoBytes = 2 * 1024 * 1024;

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

/** The content type of a stored logo, from the extension the server gave its key. */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1) as ImageType["extension"];
  return contentTypes[extension] ?? "application/octet-stream";
}

/** Everything an organization stores lives under this prefix, so deletion can sweep it. */
export function organizationStoragePrefix(organizationId: number): string {
  return `orgs/${organizationId}/`;
}
