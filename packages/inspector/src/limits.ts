/** Bounds that keep a hostile file from costing more than a small, fixed amount of time and memory. */
export const limits = {
  zipMaxEntries: 200_000,
  zipMaxCentralDirectoryBytes: 64 * 1024 * 1024,
  /** Largest single entry the inspector ever inflates (manifests, plists, icons, resources.arsc). */
  maxEntryBytes: 64 * 1024 * 1024,
  /** Largest icon file read, and largest decoded RGBA image (so a WebP of about 2047 x 2047 at most). */
  maxIconBytes: 16 * 1024 * 1024,
  /** Vector drawables of one icon, all layers together: path data characters and elements drawn. */
  vectorMaxPathBytes: 1024 * 1024,
  vectorMaxElements: 10_000,
  /** Drawables followed from an icon through references, insets and wrappers. */
  drawableMaxDepth: 8,
  /** Inflated / compressed above this (for entries over 1 MiB) is treated as a bomb. */
  maxCompressionRatio: 200,
  xmlMaxDepth: 64,
  xmlMaxNodes: 200_000,
  plistMaxObjects: 500_000,
  plistMaxDepth: 64,
} as const;
