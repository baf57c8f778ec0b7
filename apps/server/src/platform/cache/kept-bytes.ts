/**
 * Text, or pieces of bytes, as UTF-8 in a Buffer of its own, to be kept in a cache.
 *
 * Kept as bytes rather than strings, records and pages live outside the JS heap. Kept as
 * strings, most of what a busy process made survived its first collections, and each young
 * collection copied it again: those pauses took about a tenth of the process's time.
 *
 * Buffer.from and Buffer.concat cut small results from a shared 8 KB slab. A kept slice would
 * hold its whole slab, with whatever else was cut from it, so a cache weighing records by their
 * size would hold several times what it counts. Hence a Buffer of its own.
 */
export function keptBytes(content: string | readonly Uint8Array[]): Buffer {
  if (typeof content === "string") {
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(content));
    bytes.write(content);
    return bytes;
  }
  const bytes = Buffer.allocUnsafeSlow(content.reduce((total, part) => total + part.byteLength, 0));
  let offset = 0;
  for (const part of content) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}
