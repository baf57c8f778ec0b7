export interface ZipEntry {
  /** Normalized entry name (forward slashes, no leading "./"). Names that escape are rejected at open. */
  name: string;
  method: number; // 0 stored, 8 deflate; anything else is refused when read
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
  localHeaderOffset: number;
  isDirectory: boolean;
  /** General-purpose bit flags; bit 0 (encrypted) makes the entry unreadable. */
  flags?: number;
}

export interface ZipArchive {
  readonly entries: readonly ZipEntry[];
  /** Exact name lookup. */
  find(name: string): ZipEntry | undefined;
  /**
   * Reads and inflates one entry, refusing (InspectError "limit_exceeded") when the declared or
   * actual size passes maxBytes or the compression ratio looks like a bomb.
   */
  read(entry: ZipEntry, maxBytes?: number): Promise<Buffer>;
}

/** What openZip returns: the archive plus where its central directory starts (the APK signing block ends there). */
export interface OpenedZip extends ZipArchive {
  readonly centralDirectoryOffset: number;
}
