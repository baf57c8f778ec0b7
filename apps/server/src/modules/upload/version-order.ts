const digits = /^\d+$/;

function compareDigits(left: string, right: string): number {
  const a = left.replace(/^0+(?=\d)/, "");
  const b = right.replace(/^0+(?=\d)/, "");
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Dot-separated numeric order ("1.10" after "1.9", "2" equal to "2.0"); a part that is not a
 * number on either side falls back to plain string order, so "1.0-beta" still sorts somewhere.
 */
export function compareDotted(left: string, right: string): number {
  const a = left.trim().split(".");
  const b = right.trim().split(".");
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const x = a[index] ?? "0";
    const y = b[index] ?? "0";
    if (digits.test(x) && digits.test(y)) {
      const order = compareDigits(x, y);
      if (order !== 0) return order;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

export interface VersionKey {
  version: string;
  buildNumber: string;
}

/** Version first, then build number: the order in which an app's builds must arrive. */
export function compareBuilds(left: VersionKey, right: VersionKey): number {
  return compareDotted(left.version, right.version) || compareDotted(left.buildNumber, right.buildNumber);
}

export function newestBuild(builds: VersionKey[]): VersionKey | null {
  let newest: VersionKey | null = null;
  for (const build of builds) if (!newest || compareBuilds(build, newest) > 0) newest = build;
  return newest;
}
