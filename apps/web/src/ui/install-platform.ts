// Which of a link's builds a visitor's device can install, and how the button is named.
import {
  type DevicePlatform,
  detectDevicePlatform,
  detectInAppBrowser,
  type InAppBrowser,
} from "@tarmac/contracts";
import type { GetappBuild, GetappPlatform } from "../api/distribution.ts";

const DEVICE_TO_BUILD: Record<DevicePlatform, GetappPlatform | null> = {
  iphone: "ios",
  ipad: "ios",
  android: "android",
  windows: "windows",
  macos: "macos",
  other: null,
};

export function buildPlatformFor(device: DevicePlatform): GetappPlatform | null {
  return DEVICE_TO_BUILD[device];
}

export function isHandheld(device: DevicePlatform): boolean {
  return device === "iphone" || device === "ipad" || device === "android";
}

export interface OrderedBuilds {
  /** The build for the visitor's own device, shown first and largest. */
  primary: GetappBuild | null;
  others: GetappBuild[];
}

const PLATFORM_ORDER: GetappPlatform[] = ["ios", "android", "windows", "macos"];

/** The device's build first; the rest in a fixed platform order so the page never reshuffles. */
export function orderBuilds(builds: GetappBuild[], device: DevicePlatform): OrderedBuilds {
  const sorted = [...builds].sort(
    (a, b) => PLATFORM_ORDER.indexOf(a.platform) - PLATFORM_ORDER.indexOf(b.platform),
  );
  const wanted = buildPlatformFor(device);
  const primary = wanted ? (sorted.find((build) => build.platform === wanted) ?? null) : null;
  return { primary, others: sorted.filter((build) => build !== primary) };
}

/** Translation key of the install button; e2e tests find the buttons by these names. */
export function installLabelKey(build: GetappBuild, device: DevicePlatform): string {
  switch (build.platform) {
    case "ios":
      return device === "ipad" ? "install.install_ipad" : "install.install_iphone";
    case "android":
      return "install.download_apk";
    case "windows":
      return "install.download_windows";
    case "macos":
      return "install.download_macos";
  }
}

export interface VisitorDevice {
  device: DevicePlatform;
  inAppBrowser: InAppBrowser | null;
}

export function readVisitorDevice(
  nav: Pick<Navigator, "userAgent" | "maxTouchPoints"> = navigator,
): VisitorDevice {
  return {
    device: detectDevicePlatform(nav.userAgent, nav.maxTouchPoints),
    inAppBrowser: detectInAppBrowser(nav.userAgent),
  };
}

/** The browser to open the page in instead of an app's embedded viewer. */
export function systemBrowserKey(device: DevicePlatform): string {
  return device === "iphone" || device === "ipad" ? "install.safari" : "install.chrome";
}
