/**
 * Files in an organization's own storage are recorded with a location-qualified key,
 * `loc/{location id}/{key in that storage}`; files in the instance's storage with the key alone.
 * The key in a database row therefore says where the file lives, and every reader finds it
 * without knowing about locations (RoutedStorage does the dispatch).
 */
const qualified = /^loc\/([1-9][0-9]{0,15})\/(.+)$/;

export function qualifiedKey(location: number, key: string): string {
  return `loc/${location}/${key}`;
}

/** The location (null: the instance's storage) and the key within it. */
export function splitKey(key: string): { location: number | null; key: string } {
  const match = qualified.exec(key);
  if (!match) return { location: null, key };
  return { location: Number(match[1]), key: match[2] as string };
}

export function locationOfKey(key: string): number | null {
  return splitKey(key).location;
}
