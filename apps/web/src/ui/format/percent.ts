/** Share of a limit in percent for progress bars; 0 for unlimited. */
export function toPercent(used: number, limit: number): number {
  if (!limit) return 0;
  return Math.min(100, Math.round((used / limit) * 100));
}
