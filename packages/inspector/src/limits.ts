/** Bounds that keep a hostile file from costing more than a small, fixed amount of time and memory. */
export const limits = {
  zipMaxEntries: 200_000,
  zipMaxCentralDirectoryBytes: 64 * 1024 * 1024,
  /** Largest single entry the inspector ever inflates (manifests, plists, icons, resources.arsc). */
  maxEntryBytes: 64 * 1024 * 1024,
  maxIconBytes: 16 * 1024 * 1024,
  /** Inflated / compressed above this (for entries over 1 MiB) is treated as a bomb. */
  maxCompressionRatio: 200,
  xmlMaxDepth: 64,
  xmlMaxNodes: 200_000,
  plistMaxObjects: 500_000,
  plistMaxDepth: 64,
} as const;
