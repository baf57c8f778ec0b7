/**
 * RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 5987). Lives with
 * storage because bucket drivers sign it into download URLs, as the file route sends it itself.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeStrictly(fileName)}`;
}

/**
 * Percent-encoding of RFC 3986 unreserved characters only: encodeURIComponent leaves ' ( ) *
 * alone, which neither RFC 5987's attr-char nor signed-URL canonical forms allow.
 */
export function encodeStrictly(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
