// Minimum system versions as people say them: "Android 8.0 (API 26)", "iOS 15.0", "macOS 10.8".
// Builds state Android's minimum as an API level, which few people know by number.

const ANDROID_RELEASES: Record<number, string> = {
  16: "4.1",
  17: "4.2",
  18: "4.3",
  19: "4.4",
  21: "5.0",
  22: "5.1",
  23: "6.0",
  24: "7.0",
  25: "7.1",
  26: "8.0",
  27: "8.1",
  28: "9",
  29: "10",
  30: "11",
  31: "12",
  32: "12L",
  33: "13",
  34: "14",
  35: "15",
  36: "16",
};

const SYSTEM_NAMES = ["Android", "iOS", "Windows", "macOS"] as const;
type Platform = 0 | 1 | 2 | 3 | "android" | "ios" | "windows" | "macos";

function systemIndex(platform: Platform): number {
  if (typeof platform === "number") return platform;
  return { android: 0, ios: 1, windows: 2, macos: 3 }[platform];
}

/** "Android 8.0 (API 26)" for 26 on Android; "iOS 15.0" for 15.0 on iOS; null without a value. */
export function minimumSystem(platform: Platform, value: string | null | undefined): string | null {
  if (!value) return null;
  const index = systemIndex(platform);
  const system = SYSTEM_NAMES[index] ?? "";
  if (index !== 0) return `${system} ${value}`;
  const level = Number(value);
  const release = Number.isInteger(level) ? ANDROID_RELEASES[level] : undefined;
  if (release) return `Android ${release} (API ${level})`;
  return Number.isInteger(level) ? `Android API ${level}` : `Android ${value}`;
}
