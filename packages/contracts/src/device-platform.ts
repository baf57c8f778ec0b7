/**
 * Device and browser detection shared by the install pages (web) and the server: which build a
 * visitor can install, and whether they are stuck in an app's embedded browser, where iOS
 * over-the-air installs and profile downloads do not work.
 */

export const devicePlatforms = ["iphone", "ipad", "android", "windows", "macos", "other"] as const;
export type DevicePlatform = (typeof devicePlatforms)[number];

export function detectDevicePlatform(
  userAgent: string | null | undefined,
  maxTouchPoints = 0,
): DevicePlatform {
  const ua = userAgent ?? "";
  // iPhone UAs also say "like Mac OS X", so the handheld checks come before the desktop ones.
  if (/\b(iPhone|iPod)\b/.test(ua)) return "iphone";
  if (/\biPad\b/.test(ua)) return "ipad";
  // Windows Phone UAs claim Android too, yet install neither kind of build.
  if (/Windows Phone/i.test(ua)) return "other";
  if (/\bAndroid\b/.test(ua)) return "android";
  if (/\bWindows\b/.test(ua)) return "windows";
  if (/\bMacintosh\b|\bMac OS X\b/.test(ua)) {
    // iPadOS 13+ Safari asks for desktop sites and sends a Mac UA; only touch support tells.
    return maxTouchPoints > 1 ? "ipad" : "macos";
  }
  return "other";
}

export const inAppBrowsers = [
  "facebook",
  "instagram",
  "line",
  "twitter",
  "linkedin",
  "telegram",
  "wechat",
  "google",
  "android-webview",
] as const;
export type InAppBrowser = (typeof inAppBrowsers)[number];

// Order matters: the app-specific markers win over the generic Android WebView one, which the
// Facebook and Instagram Android apps also carry.
const inAppMarkers: ReadonlyArray<readonly [InAppBrowser, RegExp]> = [
  ["instagram", /\bInstagram\b/i],
  ["facebook", /\bFBAN\/|\bFBAV\/|\bFB_IAB\b|\bFBIOS\b/],
  ["line", /\bLine\/\d/i],
  ["twitter", /\bTwitter(Android)?\b/i],
  ["linkedin", /\bLinkedInApp\b/i],
  ["telegram", /\bTelegram(-Android)?\b/i],
  ["wechat", /\bMicroMessenger\//i],
  // GSA: the Google app, whose viewer also opens links from Gmail on iOS.
  ["google", /\bGSA\/\d/],
  ["android-webview", /; wv\)/],
];

export function detectInAppBrowser(userAgent: string | null | undefined): InAppBrowser | null {
  const ua = userAgent ?? "";
  for (const [name, marker] of inAppMarkers) if (marker.test(ua)) return name;
  return null;
}
