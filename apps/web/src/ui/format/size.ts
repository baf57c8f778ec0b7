// File sizes (bytes) and plan storage (MB) in readable units.

const UNITS = ["B", "KB", "MB", "GB", "TB"];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/** Plan limits are stored in MB; 0 or a missing limit means unlimited (spec §9). */
export function formatStorage(megabytes: number, language: string): string {
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  if (megabytes >= 1024 * 1024) return `${format.format(megabytes / (1024 * 1024))} TB`;
  if (megabytes >= 1024) return `${format.format(megabytes / 1024)} GB`;
  return `${format.format(megabytes)} MB`;
}
