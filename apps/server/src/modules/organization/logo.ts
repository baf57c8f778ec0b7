import { contentTypeOfExtension } from "../../platform/images/raster-image.ts";

/** Logos are small raster images; the type comes from the bytes, never from the name or header. */
export const maxLogoBytes = 2 * 1024 * 1024;

/** The content type of a stored logo, from the extension the server gave its key. */
export function contentTypeOfKey(key: string): string {
  return contentTypeOfExtension(key.slice(key.lastIndexOf(".") + 1));
}

/** Everything an organization stores lives under this prefix, so deletion can sweep it. */
export function organizationStoragePrefix(organizationId: number): string {
  return `orgs/${organizationId}/`;
}
