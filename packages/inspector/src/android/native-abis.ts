import type { ZipEntry } from "../zip/types.ts";

/** ABIs with at least one library under `<prefix><abi>/` (lib/ in an APK, base/lib/ in a bundle), sorted. */
export function readNativeAbis(entries: readonly ZipEntry[], prefix: string): string[] {
  const abis = new Set<string>();
  for (const entry of entries) {
    if (entry.isDirectory || !entry.name.startsWith(prefix)) continue;
    const rest = entry.name.slice(prefix.length).split("/");
    if (rest.length >= 2 && rest[0]) abis.add(rest[0]);
  }
  return [...abis].sort();
}
